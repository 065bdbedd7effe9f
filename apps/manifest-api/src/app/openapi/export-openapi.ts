import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { configure } from '../configure';
import { buildOpenApiDocument, serializeOpenApi } from './openapi-document';
import { OpenApiDocsModule } from './openapi-docs.module';

/** The OpenAPI document as text, built from the controllers without a database or Kafka. */
export async function renderOpenApi(): Promise<string> {
  const app = await NestFactory.create(OpenApiDocsModule, { logger: false });
  try {
    configure(app, { openApi: false });
    return serializeOpenApi(buildOpenApiDocument(app));
  } finally {
    await app.close();
  }
}

/** `node dist/apps/manifest-api/main.js openapi [file]` writes docs/openapi.json (or `file`). */
export async function exportOpenApi(file: string): Promise<void> {
  writeFileSync(file, await renderOpenApi());
  process.stdout.write(`OpenAPI document written to ${file}\n`);
}
