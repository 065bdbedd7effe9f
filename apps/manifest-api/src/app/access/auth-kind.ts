/** Which token a route accepts: the bootstrap admin token, or an API token of a workspace. */
export type AuthKind = 'admin' | 'workspace';
export const AUTH_KIND = 'owd:auth-kind';
