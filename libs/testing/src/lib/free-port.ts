import { createServer } from 'node:net';

/** A loopback port nothing listens on now (taken and given back by the OS; another process could take it meanwhile). */
export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    }).on('error', rej);
  });
}
