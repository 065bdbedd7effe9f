import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_HEADER } from './header-names';
import { getHeader } from './header-lookup';
import { DEFAULT_BODY_LIMIT_BYTES, readRawBody, verifyRawBody } from './request';
import { DEFAULT_TOLERANCE_SECONDS } from './verify';

export interface ListenOptions {
  /** Receiver secret; without it nothing is verified and every request gets the scripted status. */
  secret?: string;
  port: number;
  host?: string;
  /** Status of the 1st, 2nd, ... delivery; the last one repeats. Default: 204. */
  statuses?: readonly number[];
  /** With status 409: the revision put in the body ({"revision": n}). */
  revision?: number;
  toleranceSeconds?: number;
  /** Unix seconds; injected by tests. */
  now?: () => number;
  print?: (line: string) => void;
}

export interface Listener {
  url: string;
  close(): Promise<void>;
}

interface Summary {
  event: string;
  result: string;
  revision: string;
}

/** A local receiver (like `stripe listen`) that prints each delivery and answers scripted statuses. */
export async function listen(options: ListenOptions): Promise<Listener> {
  const print = options.print ?? ((line: string) => console.log(line));
  const statuses = options.statuses?.length ? options.statuses : [204];
  let count = 0;
  const server = createServer((req, res) => {
    count += 1;
    void handle(req, res, count, statuses[Math.min(count, statuses.length) - 1] ?? 204);
  });

  async function handle(req: IncomingMessage, res: ServerResponse, n: number, scripted: number): Promise<void> {
    const read = await readRawBody(req, DEFAULT_BODY_LIMIT_BYTES);
    const raw = typeof read === 'string' ? Buffer.alloc(0) : read;
    const verification = typeof read === 'string' ? `failed: ${read}` : check(req, raw);
    const failed = options.secret !== undefined && !verification.endsWith(' ok');
    const status = failed ? 401 : scripted;
    const body = failed ? { error: verification } : status === 409 && options.revision !== undefined ? { revision: options.revision } : undefined;
    const s = summarise(raw);
    print(
      `#${n} ${req.method ?? '?'} ${clean(req.url ?? '')}  event=${s.event}  result=${s.result}  revision=${s.revision}` +
        `  delivery=${clean(getHeader(req.headers, DELIVERY_HEADER.DELIVERY) ?? '-')}  verification=${verification}` +
        `  -> ${status}${body ? ' ' + JSON.stringify(body) : ''}`,
    );
    if (body) res.setHeader('Content-Type', 'application/json');
    res.statusCode = status;
    res.end(body ? JSON.stringify(body) : undefined);
  }

  function check(req: IncomingMessage, raw: Buffer): string {
    if (options.secret === undefined) return 'not checked (no secret given)';
    const verifyOptions = { toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS, now: options.now?.() };
    const signature = verifyRawBody(options.secret, req.headers, raw, verifyOptions);
    if (signature.ok) return 'signature ok';
    if (signature.reason !== 'missing_signature') return `signature failed: ${signature.reason}`;
    // Bearer is the weaker form the service also sends; say which one passed.
    const bearer = verifyRawBody(options.secret, req.headers, raw, { method: 'bearer' });
    return bearer.ok ? 'bearer ok' : `failed: missing_signature, ${bearer.reason}`;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  return { url: urlOf(server), close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function summarise(raw: Buffer): Summary {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { event: '(body is not JSON)', result: '-', revision: '-' };
  }
  const field = (name: string): string => {
    const value = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
    return value === undefined || value === null ? '-' : clean(String(value));
  };
  return { event: field('event'), result: field('result_id'), revision: field('revision') };
}

// Request values reach a terminal: control characters could rewrite the screen.
function clean(text: string): string {
  return text.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?').slice(0, 200);
}

function urlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
