import Ajv, { type ValidateFunction } from 'ajv';
import { isURL, isUUID } from 'class-validator';
import { isAsciiEmail, isRfc3339DateTime } from '../formats/formats';
import { classSchema, SchemaComponents, URL_KEYWORD } from './json-schema';

/**
 * One ajv for every compiled check, set to judge values as class-validator does: the formats and the URL keyword
 * call the decorators' own functions (formats/formats.ts, validator.js's `isURL`), patterns run without the `u` flag
 * as `@Matches` runs them, and numbers must be finite, as `@IsInt` and `@IsNumber` require (JSON.parse reads 1e999
 * as Infinity).
 */
const ajv = new Ajv({ allErrors: false, strict: false, strictNumbers: true, unicodeRegExp: false });
ajv.addFormat('uuid', (s: string) => isUUID(s));
ajv.addFormat('date-time', (s: string) => isRfc3339DateTime(s));
ajv.addFormat('email', (s: string) => isAsciiEmail(s));
ajv.addKeyword({
  keyword: URL_KEYWORD,
  type: 'string',
  schemaType: 'object',
  validate: (options: Parameters<typeof isURL>[1], value: string) => isURL(value, options),
});

/**
 * `cls`'s class-validator rules as one compiled check (classSchema, the generator the AsyncAPI document uses):
 * a value is checked without building and walking class instances. `closed` refuses unknown keys at every level,
 * as class-validator's `whitelist` with `forbidNonWhitelisted` does. Throws when a rule has no mapping.
 */
export function compileClassCheck(cls: new () => object, closed: boolean): ValidateFunction {
  const components = new SchemaComponents();
  const root = classSchema(cls, closed, components);
  return ajv.compile({ ...root, components: { schemas: components.schemas } });
}
