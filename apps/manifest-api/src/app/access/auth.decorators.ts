import { applyDecorators, createParamDecorator, SetMetadata, UseGuards, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth } from '../openapi/api-docs';
import { ApiProblems, SERVER_PROBLEMS } from '../openapi/api-problems.decorator';
import { ApiAuthGuard } from './api-auth.guard';
import { AUTH_KIND } from './auth-kind';
import type { AuthenticatedRequest } from './principal';

/** Routes of a workspace: an API token of that workspace (goals, results, contracts). */
export const WorkspaceAuth = () =>
  applyDecorators(SetMetadata(AUTH_KIND, 'workspace'), UseGuards(ApiAuthGuard), ApiBearerAuth('apiToken'), ApiProblems(401, 403, 429, ...SERVER_PROBLEMS));

/** Management routes: the bootstrap ADMIN_TOKEN (workspaces and their tokens). */
export const AdminAuth = () =>
  applyDecorators(SetMetadata(AUTH_KIND, 'admin'), UseGuards(ApiAuthGuard), ApiBearerAuth('adminToken'), ApiProblems(401, 403, 429, ...SERVER_PROBLEMS));

/** The workspace of the calling API token. */
export const WorkspaceId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (principal?.kind !== 'workspace') throw new Error('WorkspaceId used on a route without WorkspaceAuth');
  return principal.workspaceId;
});

/** The calling API token's name (recorded as who approved a result). */
export const TokenName = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  return principal?.kind === 'workspace' ? principal.tokenName : undefined;
});

/** The calling API token's id. */
export const TokenId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (principal?.kind !== 'workspace') throw new Error('TokenId used on a route without WorkspaceAuth');
  return principal.tokenId;
});
