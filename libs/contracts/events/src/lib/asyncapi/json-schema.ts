import { plainToInstance } from 'class-transformer';
import type { MetadataStorage as TypeStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, ValidationTypes, type MetadataStorage } from 'class-validator';
import { IS_NULLABLE, IS_OPTIONAL_NOT_NULL } from '../formats/format.decorators';
import { UTC_TIMESTAMP_PATTERN } from '../formats/formats';

export type Json = string | number | boolean | null | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

type Constructor = new () => object;
type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

// class-transformer's `@Type` records, which its package index does not export (its own storage module, typed).
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TypeStorage };

/** Named schemas of payload classes and the classes they nest, in `components.schemas`. */
export class SchemaComponents {
  readonly schemas: JsonObject = {};
  private readonly classes = new Map<string, Constructor>();

  /**
   * Registers `cls` (and its nested classes) and returns a `$ref` to it. `closed` adds
   * `additionalProperties: false`: consumers validate payloads with unknown keys refused.
   */
  ref(cls: Constructor, closed: boolean, descriptions: Readonly<Record<string, string>> = {}): JsonObject {
    const known = this.classes.get(cls.name);
    if (known && known !== cls) throw new Error(`asyncapi: two classes are named ${cls.name}`);
    if (!known) {
      this.classes.set(cls.name, cls);
      this.schemas[cls.name] = classSchema(cls, closed, this, descriptions);
    }
    return { $ref: `#/components/schemas/${cls.name}` };
  }
}

/**
 * The keyword that carries `@IsUrl`'s options: no JSON Schema format says what validator.js's `isURL` accepts, so a
 * compiled check calls that very function with these options (class-check.ts).
 */
export const URL_KEYWORD = 'x-is-url';

/** The published pattern of a base64 field (`@IsBase64`): padded, standard alphabet. */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

/** `$ref` to a class's schema in the components (registered on first use). */
type Refer = (cls: Constructor) => JsonObject;

/** JSON Schema (draft-07) fragment of each class-validator decorator the event and intake classes use. */
const FRAGMENTS: Readonly<Record<string, (constraints: readonly unknown[], refer: Refer) => JsonObject>> = {
  isString: () => ({ type: 'string' }),
  isUuid: () => ({ type: 'string', format: 'uuid' }),
  isInt: () => ({ type: 'integer' }),
  isBoolean: () => ({ type: 'boolean' }),
  isObject: () => ({ type: 'object' }),
  isArray: () => ({ type: 'array' }),
  // The formats of libs/contracts/events/src/lib/formats: class-validator's own date and e-mail checks have no mapping,
  // since they accept values (ISO 8601 week dates, internationalised addresses) the JSON Schema formats refuse.
  isRfc3339DateTime: () => ({ type: 'string', format: 'date-time' }),
  isUtcTimestamp: () => ({ type: 'string', format: 'date-time', pattern: UTC_TIMESTAMP_PATTERN.source }),
  isAsciiEmail: () => ({ type: 'string', format: 'email' }),
  isBase64: () => ({ type: 'string', contentEncoding: 'base64', pattern: BASE64_PATTERN }),
  isIn: ([values]) => enumFragment(values),
  matches: ([pattern]) => patternFragment(pattern),
  min: ([n]) => ({ minimum: numberConstraint(n) }),
  max: ([n]) => ({ maximum: numberConstraint(n) }),
  minLength: ([n]) => ({ minLength: numberConstraint(n) }),
  maxLength: ([n]) => ({ maxLength: numberConstraint(n) }),
  arrayMinSize: ([n]) => ({ minItems: numberConstraint(n) }),
  arrayMaxSize: ([n]) => ({ maxItems: numberConstraint(n) }),
  equals: ([value]) => constFragment(value),
  isNumber: ([options]) => numberFragment(options),
  isUrl: ([options]) => ({ type: 'string', [URL_KEYWORD]: jsonOptions(options) }),
  // apps/manifest-api's @RecordOf(Entry, keyPattern): an object used as a map of entries.
  recordOf: ([entry, keyPattern], refer) => ({
    type: 'object', propertyNames: patternFragment(keyPattern), additionalProperties: refer(entry as Constructor),
  }),
};

function constFragment(value: unknown): JsonObject {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new Error('asyncapi: @Equals with a value other than a string, number or boolean has no mapping yet');
  }
  return { const: value };
}

/** `@IsNumber()`: a finite number (the compiled checks refuse Infinity, which JSON.parse makes of 1e999). */
function numberFragment(options: unknown): JsonObject {
  const { allowInfinity, maxDecimalPlaces } = (options ?? {}) as { allowInfinity?: boolean; maxDecimalPlaces?: number };
  if (allowInfinity === true || maxDecimalPlaces !== undefined) {
    throw new Error('asyncapi: @IsNumber with allowInfinity or maxDecimalPlaces has no mapping yet');
  }
  return { type: 'number' };
}

function jsonOptions(options: unknown): JsonObject {
  const json = JSON.stringify(options ?? {});
  if (JSON.stringify(JSON.parse(json)) !== json || typeof options !== 'object') {
    throw new Error('asyncapi: validator options that are not plain JSON have no mapping');
  }
  return JSON.parse(json) as JsonObject;
}

function enumFragment(values: unknown): JsonObject {
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    throw new Error('asyncapi: @IsIn with values other than strings has no mapping yet');
  }
  return { type: 'string', enum: values as string[] };
}

function patternFragment(pattern: unknown): JsonObject {
  if (!(pattern instanceof RegExp) || pattern.flags !== '') {
    throw new Error('asyncapi: @Matches needs a RegExp without flags to become a JSON Schema pattern');
  }
  return { type: 'string', pattern: pattern.source };
}

function numberConstraint(n: unknown): number {
  if (typeof n !== 'number') throw new Error('asyncapi: a numeric constraint is not a number');
  return n;
}

function merge(into: JsonObject, fragment: JsonObject, where: string): void {
  for (const [key, value] of Object.entries(fragment)) {
    if (key === 'type' && into['type'] !== undefined && into['type'] !== value) {
      throw new Error(`asyncapi: ${where} is validated as both ${String(into['type'])} and ${String(value)}`);
    }
    into[key] = value;
  }
}

/** The class `@Type(() => X)` names, found the way class-transformer itself finds it. */
function nestedClass(cls: Constructor, property: string, isArray: boolean): Constructor {
  const probe: unknown = plainToInstance(cls, { [property]: isArray ? [{}] : {} });
  const value: unknown = (probe as Record<string, unknown>)[property];
  const element: unknown = isArray && Array.isArray(value) ? value[0] : value;
  const ctor = typeof element === 'object' && element !== null ? element.constructor : undefined;
  if (!ctor || ctor === Object) throw new Error(`asyncapi: ${cls.name}.${property} needs @Type(() => Class) beside @ValidateNested`);
  return ctor as Constructor;
}

/**
 * `@Type(() => Fallback, { discriminator })`: class-transformer picks each value's class by its discriminator property,
 * and class-validator checks it against that class. The schema does the same: the property must name one of the
 * classes (stricter than the fallback class, which exists to fail), and then the value must pass that class.
 */
function discriminated(cls: Constructor, property: string, components: SchemaComponents, closed: boolean): JsonObject | undefined {
  const options = defaultMetadataStorage.findTypeMetadata(cls, property)?.options;
  const discriminator = options?.discriminator;
  if (!discriminator) return undefined;
  if (options.keepDiscriminatorProperty !== true) {
    throw new Error(`asyncapi: ${cls.name}.${property} drops its discriminator, which its classes then cannot check`);
  }
  const key = discriminator.property;
  return {
    type: 'object',
    required: [key],
    properties: { [key]: { enum: discriminator.subTypes.map((t) => t.name) } },
    allOf: discriminator.subTypes.map((t) => ({
      if: { properties: { [key]: { const: t.name } } },
      then: components.ref(t.value as Constructor, closed),
    })),
  };
}

const KEY_ORDER = ['description', 'type', 'format', 'contentEncoding', 'enum', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'items'];

function ordered(schema: JsonObject): JsonObject {
  const rank = (k: string) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length);
  return Object.fromEntries(Object.entries(schema).sort(([a], [b]) => rank(a) - rank(b)));
}

/** Optional properties (null and undefined skipped alike) and `@IsNullable` ones (always there, maybe null). */
function nullable(schema: JsonObject): JsonObject {
  if (schema['$ref'] !== undefined) return { anyOf: [schema, { type: 'null' }] };
  const out: JsonObject = { ...schema };
  if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
  if (Array.isArray(out['enum'])) out['enum'] = [...out['enum'], null];
  return out;
}

function propertySchema(cls: Constructor, property: string, rules: ValidationMetadata[], components: SchemaComponents, closed: boolean) {
  const self: JsonObject = {};
  const items: JsonObject = {};
  const where = `${cls.name}.${property}`;
  const isArray = rules.some((r) => r.name === 'isArray');
  let optional = false;
  let mayBeNull = false;
  for (const rule of rules) {
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === 'isOptional') optional = mayBeNull = true;
    else if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === IS_NULLABLE) mayBeNull = true;
    else if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === IS_OPTIONAL_NOT_NULL) optional = true;
    else if (rule.each && !isArray) {
      // Without @IsArray, class-validator checks a value that is not an array itself; `items` would let it through.
      throw new Error(`asyncapi: ${where} checks each element without @IsArray, which has no mapping`);
    } else if (rule.type === ValidationTypes.NESTED_VALIDATION) {
      const nested = discriminated(cls, property, components, closed) ?? components.ref(nestedClass(cls, property, isArray), closed);
      merge(isArray ? items : self, nested, where);
    } else if (rule.type === ValidationTypes.CUSTOM_VALIDATION && rule.name && FRAGMENTS[rule.name]) {
      merge(rule.each ? items : self, FRAGMENTS[rule.name](rule.constraints ?? [], (entry) => components.ref(entry, closed)), where);
    } else throw new Error(`asyncapi: ${where} uses a validator (${rule.type} ${rule.name ?? ''}) with no JSON Schema mapping yet`);
  }
  if (Object.keys(items).length > 0) self['items'] = ordered(items);
  const schema = ordered(self);
  return { schema: mayBeNull ? nullable(schema) : schema, optional };
}

/** The JSON Schema of what class-validator accepts for `cls`, read from its decorators. */
export function classSchema(
  cls: Constructor, closed: boolean, components: SchemaComponents, descriptions: Readonly<Record<string, string>> = {},
): JsonObject {
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
    byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  }
  for (const described of Object.keys(descriptions)) {
    if (!byProperty.has(described)) throw new Error(`asyncapi: a description names ${cls.name}.${described}, which has no validator`);
  }
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    const { schema, optional } = propertySchema(cls, property, rules, components, closed);
    const description = descriptions[property];
    properties[property] = description ? { description, ...schema } : schema;
    if (!optional) required.push(property);
  }
  return {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties,
    ...(closed ? { additionalProperties: false } : {}),
  };
}
