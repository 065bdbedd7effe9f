import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  remotePort: number;
  at: number;
}

export type ReceiverHandler = (req: ReceivedRequest, res: ServerResponse) => void;

/** A loopback HTTP receiver that records every request it gets and answers with `handler`. */
export interface TestReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Most requests it had open at once. */
  maxOpen: number;
  handle(handler: ReceiverHandler): void;
  close(): Promise<void>;
}

export async function startReceiver(handler: ReceiverHandler = (_r, res) => res.writeHead(204).end()): Promise<TestReceiver> {
  let current = handler;
  let open = 0;
  const receiver: TestReceiver = {
    url: '',
    port: 0,
    requests: [],
    maxOpen: 0,
    handle: (next) => (current = next),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    open += 1;
    receiver.maxOpen = Math.max(receiver.maxOpen, open);
    res.on('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks),
        remotePort: req.socket.remotePort ?? 0, at: Date.now(),
      };
      receiver.requests.push(received);
      current(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
