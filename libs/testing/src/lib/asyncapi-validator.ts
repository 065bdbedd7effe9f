import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/**
 * Checks messages as a team outside would: against the committed docs/asyncapi.yaml with ajv and the
 * standard formats of ajv-formats, not with the services' own validation.
 */
export class AsyncApiValidator {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });

  constructor(file = join(__dirname, '../../../../docs/asyncapi.yaml')) {
    addFormats(this.ajv);
    this.ajv.addSchema(parse(readFileSync(file, 'utf8')) as object, 'asyncapi.yaml');
  }

  /** Errors of `value` against the payload schema of message `messageId` (e.g. `goalChangedV1`); empty when valid. */
  errors(messageId: string, value: unknown, part: 'payload' | 'headers' = 'payload'): string[] {
    const validate: ValidateFunction | undefined = this.ajv.getSchema(`asyncapi.yaml#/components/messages/${messageId}/${part}`);
    if (!validate) throw new Error(`docs/asyncapi.yaml has no ${part} schema for ${messageId}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);
  }
}
