import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { SCHEMA_PATH } from './repo-paths';

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);

const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')));

/** Validates a parsed body against docs/schemas/payload-v5.schema.json; returns readable errors, [] when valid. */
export function schemaErrors(body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim());
}
