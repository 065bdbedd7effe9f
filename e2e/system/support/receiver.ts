import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  at: number;
}

/** A customer receiver on loopback that records every request and answers what `respond` says. */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  private server?: Server;

  constructor(private respond: (req: ReceivedRequest, index: number) => { status: number; body?: string } = () => ({ status: 204 })) {}

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const entry = { headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() };
        this.requests.push(entry);
        const { status, body } = this.respond(entry, this.requests.length - 1);
        res.writeHead(status, body ? { 'content-type': 'application/json' } : {}).end(body);
      });
    });
    await new Promise<void>((res) => this.server?.listen(0, '127.0.0.1', res));
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}/hook`;
  }

  json<T = Record<string, unknown>>(index: number): T {
    return JSON.parse(this.requests[index].raw.toString('utf8')) as T;
  }

  close(): Promise<void> {
    return new Promise((res) => (this.server ? this.server.close(() => res()) : res()));
  }
}
