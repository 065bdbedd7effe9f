import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { REQUEST_LINE, type PendingLine } from './request-logger';

/**
 * Node's request with every property Express, its router and body-parser give it while a request is handled, made
 * with the request itself rather than added one by one as it goes through them.
 *
 * An object that gains a property after it is made moves to another hidden class, and once its slots are full V8
 * copies its out-of-object properties into a larger array: a request gained eight such properties on its way, a
 * response three (its status and `locals`), so every request copied both objects' property arrays several times. At
 * full load the API holds a request for tens of milliseconds, long enough for those copies to live through the young
 * generation with it (docs/performance.md, forty-second round). Made here, the properties are in place from the start
 * and each request keeps its first hidden class. Values are what the code that sets them expects to find before it
 * does (undefined; a response's status 200, as Node's prototype has it).
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
  // EventEmitter counts listeners here once the first is added (Node's streams start without the count: undefined)
  _eventsCount: number | undefined = undefined;
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
