import { IncomingMessage, ServerResponse, request, type Server } from 'node:http';
import { Socket } from 'node:net';
import { ServiceHttpAdapter, ServiceRequest, ServiceResponse } from './http-server';

describe('ServiceRequest and ServiceResponse: Node\'s request and response, made in their final shape', () => {
  it('count their listeners and name their events as Node\'s do', () => {
    const made = [new ServiceRequest(new Socket()), new IncomingMessage(new Socket())];
    const counts = made.map((req) => {
      const before = req.eventNames().length;
      const onData = () => undefined;
      req.on('data', onData);
      const named = req.eventNames().includes('data');
      // EventEmitter's own count of event names with listeners, the one such property the class makes (from 0).
      const counted = (req as unknown as { _eventsCount: unknown })._eventsCount;
      req.off('data', onData);
      return [before, named, counted, req.eventNames().includes('data'), req.listenerCount('data')];
    });
    expect(counts[0]).toEqual(counts[1]);
    expect(counts[0]).toEqual([0, true, 1, false, 0]);
  });

  it('answer 200 with its reason phrase unless told otherwise, as Node\'s response does', () => {
    const req = new IncomingMessage(new Socket());
    const res = new ServiceResponse(req);
    const plain = new ServerResponse(req);
    expect([res.statusCode, res.statusMessage]).toEqual([plain.statusCode, plain.statusMessage]);
    res.writeHead(res.statusCode);
    plain.writeHead(plain.statusCode);
    expect(res.statusMessage).toBe('OK');
    expect(res.statusMessage).toBe(plain.statusMessage);
  });
});

describe('ServiceHttpAdapter', () => {
  /** Serves one request on the adapter's server; the classes of what Node made for it (before Express sets their prototypes). */
  async function madeBy(adapter: ServiceHttpAdapter): Promise<{ req: unknown; res: unknown }> {
    adapter.initHttpServer({});
    const server = adapter.getHttpServer() as Server;
    let seen: { req: unknown; res: unknown } = { req: undefined, res: undefined };
    server.prependListener('request', (req, res) => {
      seen = { req: Object.getPrototypeOf(req).constructor, res: Object.getPrototypeOf(res).constructor };
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/nothing-here' }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return seen;
  }

  it('serves on a server that makes ServiceRequest and ServiceResponse', async () => {
    expect(await madeBy(new ServiceHttpAdapter())).toEqual({ req: ServiceRequest, res: ServiceResponse });
  });

  it('makes a service\'s own request class when it is given one', async () => {
    class WithCaller extends ServiceRequest {
      caller: string | undefined = undefined;
    }
    expect(await madeBy(new ServiceHttpAdapter(WithCaller))).toEqual({ req: WithCaller, res: ServiceResponse });
  });
});
