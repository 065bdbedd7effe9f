import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';

type Next = (err?: unknown) => void;
/** An Express app, called as the middleware it also is. */
type Handler = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

const OPENAPI_JSON_PATH = 'api/docs-json';

const isDocsPath = (path: string): boolean => path === '/api/docs' || path.startsWith('/api/docs/') || path.startsWith('/api/docs-');

/**
 * Swagger UI at /api/docs, the document at /api/docs-json and /api/docs-yaml (public, like /health), served by
 * `@nestjs/swagger`'s own SwaggerModule. The document is docs/openapi.json (`file`; the build puts it beside main.js),
 * which openapi.spec.ts holds to the decorators: in the running API they record nothing (swagger-at-runtime.ts). The
 * package and the document are loaded by the first request for one of these paths, not at start: a pod would
 * otherwise hold them (~2 MiB of heap) for pages few ever open.
 */
export function setupOpenApi(app: INestApplication, file: string): void {
  let docs: Promise<Handler> | undefined;
  app.use((req: IncomingMessage, res: ServerResponse, next: Next) => {
    if (!isDocsPath((req.url ?? '').split('?')[0])) return next();
    // A failure (no document beside the bundle) is answered as an error and tried again by the next request.
    docs ??= serveDocs(file).catch((err: unknown) => {
      docs = undefined;
      throw err;
    });
    // Express gives a request the prototype of the app that handles it: back to the API's for what comes after.
    const own = Object.getPrototypeOf(req) as object;
    docs.then((handle) => handle(req, res, (err?: unknown) => {
      Object.setPrototypeOf(req, own);
      next(err);
    }), next);
  });
}

/** An Express app of its own that SwaggerModule sets up, as it would the API, with the document in `file`. */
async function serveDocs(file: string): Promise<Handler> {
  const [{ SwaggerModule }, { ExpressAdapter }, text] = await Promise.all([
    import('@nestjs/swagger'), import('@nestjs/platform-express'), readFile(file, 'utf8'),
  ]);
  const document = JSON.parse(text);
  const adapter = new ExpressAdapter();
  // SwaggerModule asks an application for its HTTP adapter and to serve Swagger UI's files; nothing else.
  const app = { getHttpAdapter: () => adapter, useStaticAssets: (path: string, options: object) => adapter.useStaticAssets(path, options) };
  SwaggerModule.setup('api/docs', app as unknown as INestApplication, () => document, { jsonDocumentUrl: OPENAPI_JSON_PATH });
  return adapter.getInstance<Handler>();
}
