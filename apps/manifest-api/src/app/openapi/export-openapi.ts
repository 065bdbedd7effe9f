import { NestFactory } from '@nestjs/core';
import { configure } from '../configure';
import { buildOpenApiDocument, serializeOpenApi } from './openapi-document';
import { OpenApiDocsModule } from './openapi-docs.module';

/**
 * The OpenAPI document as text, built from the controllers without a database or Kafka: docs/openapi.json, which the
 * running API serves (regenerate: UPDATE_OPENAPI=1 npx jest -c apps/manifest-api/jest.config.cjs openapi).
 */
export async function renderOpenApi(): Promise<string> {
  const app = await NestFactory.create(OpenApiDocsModule, { logger: false });
  try {
    configure(app);
    return serializeOpenApi(buildOpenApiDocument(app));
  } finally {
    await app.close();
  }
}
