import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeProblem } from '../http/problem.filter';
import { problemForStatus } from '../http/problem-defaults';

export interface RawBodyRequest extends IncomingMessage {
  rawBody?: Buffer;
}

/** Keeps the exact bytes of requests to `path` (a signature is computed over them), up to `limit`; no parser sees them. */
export function captureRawBody(path: string, limit: number) {
  return function rawBody(req: RawBodyRequest, res: ServerResponse, next: (err?: unknown) => void): void {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== path) return next();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > limit) return writeProblem(res, problemForStatus(413, `Request bodies are limited to ${limit} bytes.`, path));
      req.rawBody = Buffer.concat(chunks);
      next();
    });
    req.on('error', next);
  };
}
