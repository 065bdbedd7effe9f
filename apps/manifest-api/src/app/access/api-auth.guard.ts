import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { problems } from '../http/problem';
import { AUTH_KIND, type AuthKind } from './auth-kind';
import { AuthenticationService } from './authentication.service';
import type { AuthenticatedRequest } from './principal';
import { bearerToken } from './token-codec';

/** Authenticates `Authorization: Bearer`, checks the token kind the route needs, then the token's rate limit. */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector, private readonly auth: AuthenticationService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const needed = this.reflector.getAllAndOverride<AuthKind | undefined>(AUTH_KIND, [context.getHandler(), context.getClass()]) ?? 'workspace';
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // A request with a body was identified before its body was read (authenticateBeforeBody).
    const principal = req.principal ?? await this.auth.identify(bearerToken(req.headers.authorization));
    if (principal.kind !== needed) {
      throw problems.forbidden(needed === 'admin'
        ? 'This endpoint needs the admin token.'
        : 'The admin token manages workspaces and tokens only; use an API token of the workspace.');
    }
    this.auth.spend(principal);
    req.principal = principal;
    return true;
  }
}
