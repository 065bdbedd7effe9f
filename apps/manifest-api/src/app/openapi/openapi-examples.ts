import type { ContentObject, MediaTypeObject, OpenAPIObject, OperationObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';

type Schema = SchemaObject | ReferenceObject;

/** Values for formats whose generic placeholder would mislead a reader. */
const BY_FORMAT: Record<string, unknown> = {
  uuid: '5b0f3c1e-8d2a-4c6e-9f1a-2b7d4e6a8c10',
  'date-time': '2026-11-21T10:00:00.000Z',
  uri: 'https://cms.example.com/hooks/owd',
  email: 'editor@example.com',
};

/** An example of `schema` from its properties' `example`s, enums, defaults and formats, as a reader expects one. */
export function exampleOf(document: OpenAPIObject, schema: Schema, depth = 0): unknown {
  if ('$ref' in schema) return exampleOf(document, document.components?.schemas?.[schema.$ref.split('/').pop() ?? ''] ?? {}, depth);
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.allOf?.length) return exampleOf(document, schema.allOf[0], depth);
  if (schema.oneOf?.length) return exampleOf(document, schema.oneOf[0], depth);
  if (schema.nullable) return null;
  if (schema.format && schema.format in BY_FORMAT) return BY_FORMAT[schema.format];
  switch (schema.type) {
    case 'array':
      return depth > 4 || !schema.items ? [] : [exampleOf(document, schema.items, depth + 1)];
    case 'string':
      return 'text';
    case 'integer':
      return schema.minimum ?? 1;
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      if (depth > 4 || !schema.properties) return {};
      return Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, exampleOf(document, value, depth + 1)]));
  }
}

const withExample = (document: OpenAPIObject, media: MediaTypeObject): MediaTypeObject =>
  media.example !== undefined || media.examples || !media.schema ? media : { ...media, example: exampleOf(document, media.schema) };

const withExamples = (document: OpenAPIObject, content: ContentObject): ContentObject =>
  Object.fromEntries(Object.entries(content).map(([type, media]) => [type, withExample(document, media)]));

/** Gives every request body and success answer that has a schema but no example one built from the schema. */
export function addExamples(document: OpenAPIObject): OpenAPIObject {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as OperationObject[]) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const body = operation.requestBody;
      if (body && 'content' in body) body.content = withExamples(document, body.content);
      // Problem answers share ProblemDto, whose properties carry examples; one example there would show the wrong status.
      for (const [status, response] of Object.entries(operation.responses) as [string, ResponseObject | ReferenceObject][]) {
        if (status.startsWith('2') && 'content' in response && response.content) response.content = withExamples(document, response.content);
      }
    }
  }
  return document;
}
