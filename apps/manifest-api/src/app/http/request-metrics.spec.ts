import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpRequestSeconds, requestMetrics } from './request-metrics';

/** A tiny server that routes like Express would: `route.path` is set on matched requests. */
function serve(): Promise<{ server: Server; base: string }> {
  const measure = requestMetrics((path) => path.startsWith('/api/'));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => measure(req, res, () => {
    if (req.url?.startsWith('/api/results/')) {
      (req as IncomingMessage & { route: { path: string } }).route = { path: '/api/results/:id' };
      res.writeHead(req.url.endsWith('missing') ? 404 : 200).end('{}');
    } else res.writeHead(404).end();
  }));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

async function count(labels: Record<string, string>): Promise<number> {
  const { values } = await httpRequestSeconds.get();
  return values.filter((v) => v.metricName === 'owd_http_request_duration_seconds_count'
    && Object.entries(labels).every(([k, l]) => (v.labels as Record<string, unknown>)[k] === l)).reduce((s, v) => s + v.value, 0);
}

describe('API request metrics', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => ({ server, base } = await serve()));
  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });
  beforeEach(() => httpRequestSeconds.reset());

  it('counts a request under its route template and status, never under its path', async () => {
    await fetch(`${base}/api/results/res_1`);
    await fetch(`${base}/api/results/res_2`);
    await fetch(`${base}/api/results/missing`);
    expect(await count({ method: 'GET', route: '/api/results/:id', status: '200' })).toBe(2);
    expect(await count({ method: 'GET', route: '/api/results/:id', status: '404' })).toBe(1);
    const { values } = await httpRequestSeconds.get();
    expect(values.some((v) => String(v.labels['route']).includes('res_1'))).toBe(false);
  });

  it('labels a request no route matched as unmatched, and leaves paths outside the API alone', async () => {
    await fetch(`${base}/api/nothing-here`);
    await fetch(`${base}/metrics`);
    expect(await count({ route: 'unmatched', status: '404' })).toBe(1);
    expect(await count({})).toBe(1);
  });
});
