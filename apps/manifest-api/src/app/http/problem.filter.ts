import type { IncomingMessage, ServerResponse } from 'node:http';
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { isDatabaseUnavailable } from '@owd/database';
import { PROBLEM_CONTENT_TYPE, ProblemException, type Problem } from './problem';
import { problemForStatus } from './problem-defaults';

/** Writes a problem document; shared by the exception filter and the body-parsing middleware. */
export function writeProblem(res: ServerResponse, problem: Problem, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = problem.status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.end(JSON.stringify(problem));
}

/** Path without the query string: queries may carry values that do not belong in error bodies. */
export function instanceOf(req: IncomingMessage): string | undefined {
  return req.url?.split('?')[0];
}

/** Every error leaves the API as application/problem+json; unexpected ones without any internals. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<IncomingMessage>();
    const res = http.getResponse<ServerResponse>();
    const instance = instanceOf(req);
    if (exception instanceof ProblemException) {
      writeProblem(res, exception.toProblem(instance), exception.headers);
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      writeProblem(res, problemForStatus(status, status >= 500 ? 'The request could not be completed.' : exception.message, instance));
      return;
    }
    if (isDatabaseUnavailable(exception)) {
      // Nothing was stored: the client may send the same request again shortly.
      this.logger.warn({ msg: 'database unavailable', path: instance, err: exception });
      writeProblem(res, problemForStatus(503, 'The database is not reachable at the moment; nothing was stored. Try again shortly.', instance), { 'Retry-After': '5' });
      return;
    }
    // The platform's `err` serializer keeps the query text and drops its parameters (request content).
    this.logger.error({ msg: 'unhandled error', path: instance, err: exception });
    writeProblem(res, problemForStatus(500, 'An unexpected error occurred; it has been logged.', instance));
  }
}
