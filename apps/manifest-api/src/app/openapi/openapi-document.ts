import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_MODULES } from '../api-modules';

export const OPENAPI_JSON_PATH = 'api/docs-json';

function sortKeys<T>(record: Record<string, T> | undefined): Record<string, T> | undefined {
  return record && Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The OpenAPI document of /api; paths and schemas sorted so the exported file is stable. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('manifest-api')
    .setDescription('The HTTP face of outbound webhook delivery: workspaces and API tokens, goals (HTTP address channel), '
      + 'results and their delivery state, and the receiver capability report. Errors are application/problem+json '
      + '(RFC 9457). Guide: docs/api.md.')
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token of a workspace (owd_…)' }, 'apiToken')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The bootstrap ADMIN_TOKEN' }, 'adminToken')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    include: API_MODULES,
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  return {
    ...document,
    paths: sortKeys(document.paths) ?? {},
    components: { ...document.components, schemas: sortKeys(document.components?.schemas) },
  };
}

/** Swagger UI at /api/docs, the JSON document at /api/docs-json (public, like /health). */
export function setupOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: OPENAPI_JSON_PATH });
}

export function serializeOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
