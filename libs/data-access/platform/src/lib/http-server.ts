import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { REQUEST_LINE, type PendingLine } from './request-logger';

/**
 * The symbol Express's router marks a request's matched route with, taken from the router's own module (the package
 * does not export it). Undefined where a later router keeps it elsewhere: the API's test of what a submission's
 * request gains on its way then names it.
 */
const ROUTER_MATCHED_ROUTE = ((): symbol | undefined => {
  try {
    const { matchedRoute } = require('router/lib/symbols') as { matchedRoute?: unknown };
    return typeof matchedRoute === 'symbol' ? matchedRoute : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * Node's request with every property Express, its router and body-parser give it while a request is handled, made
 * with the request itself rather than added one by one as it goes through them.
 *
 * Express sets every request's and response's prototype to its own (`Object.setPrototypeOf`), and an object whose
 * prototype was changed that way gets a hidden class of its own for every property added to it afterwards: no two
 * requests shared one (V8's `%HaveSameMap` over consecutive requests: 0 of 49 for requests and for responses). So every
 * request made a dozen new hidden classes with their descriptors, and every property read on a request or a response
 * in Node's HTTP code, Express, the router, body-parser and Nest met a shape it had never seen. Made here, the
 * properties are in place before Express changes the prototype, and all requests share one hidden class, as all
 * responses do (docs/performance.md, forty-second round: about a quarter of the API's CPU per result taken in).
 * Values are what the code that sets them expects to find before it does (undefined; a response's status 200 and a
 * request's listener count 0, as the prototypes have them).
 */
export class ServiceRequest extends IncomingMessage {
  // Express (app.handle)
  res: ServerResponse | undefined = undefined;
  // the router
  next: unknown = undefined;
  baseUrl: string | undefined = undefined;
  originalUrl: string | undefined = undefined;
  params: unknown = undefined;
  route: unknown = undefined;
  // parseurl, for the router
  _parsedUrl: unknown = undefined;
  // body-parser (it leaves a property that exists as it is)
  body: unknown = undefined;
  // EventEmitter's count of event names with listeners, which a request reads from EventEmitter's prototype (0) until
  // its first listener is added
  _eventsCount = 0;

  constructor(socket: Socket) {
    super(socket);
    // The router's mark of the route it matched (ROUTER_MATCHED_ROUTE).
    if (ROUTER_MATCHED_ROUTE !== undefined) (this as unknown as Record<symbol, unknown>)[ROUTER_MATCHED_ROUTE] = undefined;
  }
}

/** Node's response with what Express and the request logger give it (see ServiceRequest). */
export class ServiceResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override statusCode = 200;
  override statusMessage = undefined as unknown as string;
  locals: unknown = undefined;
  [REQUEST_LINE]: PendingLine | undefined = undefined;
}

/**
 * Express for Nest, on an HTTP server whose requests and responses are made in their final shape (ServiceRequest,
 * ServiceResponse; a service passes its own request class when it adds properties of its own). With HTTPS or
 * `forceCloseConnections`, which the services use neither of, Nest's own server.
 */
export class ServiceHttpAdapter extends ExpressAdapter {
  constructor(private readonly request: typeof ServiceRequest = ServiceRequest) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    this.httpServer = createServer({ IncomingMessage: this.request, ServerResponse: ServiceResponse }, this.getInstance());
  }
}
