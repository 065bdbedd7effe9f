import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { serializeError, serializeRequest } from './log-serializers';

/**
 * pino settings of every service: JSON lines with `service`, credentials redacted, errors without the values
 * they carried, request paths without query strings. `destination` defaults to stdout (tests pass their own).
 */
export function loggerParams(service: string, level: string, destination?: DestinationStream): Params {
  const options: Options = {
    level,
    base: { service },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.token'], censor: '[redacted]' },
    serializers: { err: serializeError, req: serializeRequest },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === '/health' || req.url === '/metrics' },
  };
  return { pinoHttp: destination ? [options, destination] : options };
}
