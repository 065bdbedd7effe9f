import Ajv, { type ValidateFunction } from 'ajv';
import { isURL, isUUID, maxLength, minLength } from 'class-validator';
import { isAsciiEmail, isRfc3339DateTime } from '../formats/formats';
import { BASE64_PATTERN, classSchema, SchemaComponents, URL_KEYWORD, type Json, type JsonObject } from './json-schema';

/**
 * One ajv for every compiled check, set to judge values as class-validator does: the formats and the URL keyword
 * call the decorators' own functions (formats/formats.ts, validator.js's `isURL`), patterns run without the `u` flag
 * as `@Matches` runs them, numbers must be finite, as `@IsInt` and `@IsNumber` require (JSON.parse reads 1e999
 * as Infinity), and lengths are counted by `@MinLength`'s and `@MaxLength`'s own functions (LENGTH_KEYWORD).
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
 * JSON Schema counts a string's length in code points; class-validator does not count variation selectors either
 * ("a\uFE0F" is one long to it, two to ajv). The compiled checks hand `minLength` and `maxLength` to its functions.
 */
const LENGTH_KEYWORD = 'x-length';
ajv.addKeyword({
  keyword: LENGTH_KEYWORD,
  type: 'string',
  schemaType: 'object',
  validate: ({ min, max }: { min?: number; max?: number }, value: string) =>
    (min === undefined || minLength(value, min)) && (max === undefined || maxLength(value, max)),
});

/**
 * A base64 field's published pattern, judged faster: a string in the canonical form (standard alphabet, padded, no
 * stray bits in the last character) is its own re-encoding, which `Buffer` tells in a sixth of the time the pattern
 * takes over a body of a few KB (`delivery.requested`, docs/performance.md, twenty-ninth round). Every canonical string
 * matches the pattern; any other string is judged by the pattern itself, so the two accept exactly the same strings.
 */
const BASE64_KEYWORD = 'x-base64';
const base64 = new RegExp(BASE64_PATTERN);
ajv.addKeyword({
  keyword: BASE64_KEYWORD,
  type: 'string',
  schemaType: 'boolean',
  validate: (_on: boolean, value: string) => Buffer.from(value, 'base64').toString('base64') === value || base64.test(value),
});

/**
 * The schema as the compiled checks read it (documents keep the standard keywords): every `minLength`/`maxLength`
 * moved into LENGTH_KEYWORD, the base64 pattern into BASE64_KEYWORD.
 */
function compiledForm(node: Json): Json {
  if (Array.isArray(node)) return node.map(compiledForm);
  if (typeof node !== 'object' || node === null) return node;
  const isBase64 = node['pattern'] === BASE64_PATTERN;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'minLength' && key !== 'maxLength' && !(isBase64 && key === 'pattern')) out[key] = compiledForm(value);
  }
  if (node['minLength'] !== undefined || node['maxLength'] !== undefined) {
    out[LENGTH_KEYWORD] = { ...(node['minLength'] === undefined ? {} : { min: node['minLength'] }), ...(node['maxLength'] === undefined ? {} : { max: node['maxLength'] }) };
  }
  if (isBase64) out[BASE64_KEYWORD] = true;
  return out;
}

/**
 * `cls`'s class-validator rules as one compiled check (classSchema, the generator the AsyncAPI document uses):
 * a value is checked without building and walking class instances. `closed` refuses unknown keys at every level,
 * as class-validator's `whitelist` with `forbidNonWhitelisted` does. Throws when a rule has no mapping.
 */
export function compileClassCheck(cls: new () => object, closed: boolean): ValidateFunction {
  const components = new SchemaComponents();
  const root = classSchema(cls, closed, components);
  return ajv.compile(compiledForm({ ...root, components: { schemas: components.schemas } }) as JsonObject);
}
