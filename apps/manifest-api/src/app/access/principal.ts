import type { IncomingMessage } from 'node:http';

export type Principal =
  | { kind: 'admin' }
  | { kind: 'workspace'; workspaceId: string; tokenId: string; tokenName: string };

/** The request after ApiAuthGuard: who is calling. */
export interface AuthenticatedRequest extends IncomingMessage {
  principal?: Principal;
}
