import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_MODULES } from '../api-modules';
import { addExamples } from './openapi-examples';
import { typePathIds } from './openapi-path-ids';

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
    .addServer('http://127.0.0.1:3000', 'Local development (npm start)')
    .addServer('https://{host}', 'A deployment', { host: { default: 'manifest-api.example.com', description: 'Where manifest-api is served' } })
    .addBearerAuth({
      type: 'http', scheme: 'bearer', bearerFormat: 'opaque',
      description: 'An API token of a workspace: owd_ followed by 43 base64url characters (opaque, not a JWT; created by POST /api/workspaces/{id}/tokens)',
    }, 'apiToken')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'The bootstrap ADMIN_TOKEN (configuration, at least 32 characters)' }, 'adminToken')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    include: API_MODULES,
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  typePathIds(document);
  addExamples(document);
  return {
    ...document,
    paths: sortKeys(document.paths) ?? {},
    components: { ...document.components, schemas: sortKeys(document.components?.schemas) },
  };
}

export function serializeOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
