import type { ServerResponse } from 'node:http';
import { hasBody } from '../http/json-body';
import { ProblemException } from '../http/problem';
import { instanceOf, writeProblem } from '../http/problem.filter';
import type { AuthenticationService } from './authentication.service';
import type { AuthenticatedRequest } from './principal';
import { bearerToken } from './token-codec';

// Routing ignores case (`/API/goals` reaches the goals routes), so this check does too.
const API_PATH = /^\/api\//i;

/**
 * Identifies the token of an /api request that carries a body before anything reads that body: a caller without a
 * valid token gets 401 whatever it sends, and no unauthenticated bytes are parsed. ApiAuthGuard reuses the principal.
 */
export function authenticateBeforeBody(auth: AuthenticationService) {
  return async function authenticateFirst(req: AuthenticatedRequest, res: ServerResponse, next: (err?: unknown) => void): Promise<void> {
    if (!hasBody(req) || !API_PATH.test(req.url ?? '')) return next();
    try {
      req.principal = await auth.identify(bearerToken(req.headers.authorization));
    } catch (err) {
      if (err instanceof ProblemException) return writeProblem(res, err.toProblem(instanceOf(req)), err.headers);
      return next(err);
    }
    next();
  };
}
