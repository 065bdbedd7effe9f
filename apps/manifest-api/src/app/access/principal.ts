import type { IncomingMessage } from 'node:http';
import { ServiceRequest } from '@owd/platform';

export type Principal =
  | { kind: 'admin' }
  | { kind: 'workspace'; workspaceId: string; tokenId: string; tokenName: string };

/** The request after ApiAuthGuard: who is calling. */
export interface AuthenticatedRequest extends IncomingMessage {
  principal?: Principal;
}

/**
 * The API's requests as Node makes them (main.ts, through bootstrapService): the properties every service's requests
 * are made with, and the caller, which authenticateBeforeBody or ApiAuthGuard puts on a request.
 */
export class ApiRequest extends ServiceRequest implements AuthenticatedRequest {
  principal: Principal | undefined = undefined;
}
