import { HttpException, ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import { compileClassCheck } from '@owd/events';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { problems, type FieldError } from './problem';

function childPath(parent: ValidationError, parentPath: string, child: ValidationError): string {
  if (Array.isArray(parent.value) && /^\d+$/.test(child.property)) return `${parentPath}[${child.property}]`;
  return parentPath ? `${parentPath}.${child.property}` : child.property;
}

/** class-validator's error tree as `{ field: "fields[2].options", message }` items. */
export function flattenValidationErrors(errors: readonly ValidationError[], path = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = path === '' ? error.property : path;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    const children = (error.children ?? []).flatMap((child) =>
      flattenValidationErrors([child], childPath(error, field, child)));
    return [...own, ...children];
  });
}

type BodyClass = new () => object;

/** ajv's `/sections/0/blocks/0` as the API names fields: `sections[0].blocks[0]`. */
function fieldErrorsOf(errors: readonly ErrorObject[] | null | undefined): FieldError[] {
  return (errors ?? []).map((e) => ({
    field: e.instancePath.split('/').slice(1).reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), ''),
    message: e.message ?? e.keyword,
  }));
}

/**
 * A body DTO needs a JSON object; class-validator would describe anything else with an empty property name.
 * Bodies of the classes in `compiled` are checked first by their rules compiled into one JSON Schema check
 * (`compileClassCheck`, which judges a value as class-validator does, unknown keys refused at every level): a body
 * that passes reaches the handler as it was parsed, typed by its class, without class-transformer building and
 * class-validator walking an instance of every nested block. A body that fails goes the whole way below, so the
 * answer to a bad body, and every message in it, is class-validator's own (but where class-transformer cannot build
 * the instance at all, and would answer 500). Should class-validator take a body the compiled check refused, the
 * handler still gets it as plain JSON data: a compiled class's handler always sees what it would have been given as
 * parsed, never class-transformer's nested instances or their undefined keys.
 */
class ProblemValidationPipe extends ValidationPipe {
  private readonly checks: ReadonlyMap<BodyClass, ValidateFunction>;

  constructor(compiled: readonly BodyClass[], options: ConstructorParameters<typeof ValidationPipe>[0]) {
    super(options);
    this.checks = new Map(compiled.map((cls) => [cls, compileClassCheck(cls, true)]));
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const expectsObject = metadata.type === 'body' && typeof metadata.metatype === 'function' && metadata.metatype !== Object;
    if (expectsObject && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw problems.validation([], 'The request body must be a JSON object (Content-Type: application/json).');
    }
    const check = metadata.type === 'body' ? this.checks.get(metadata.metatype as BodyClass) : undefined;
    if (check?.(value)) return Object.assign(Object.create((metadata.metatype as BodyClass).prototype) as object, value);
    // Read now: the check keeps only its last call's findings, and other requests check while this one awaits.
    const found = check?.errors;
    try {
      const transformed: unknown = await super.transform(value, metadata);
      if (!check) return transformed;
      return Object.assign(Object.create((metadata.metatype as BodyClass).prototype) as object, JSON.parse(JSON.stringify(transformed)));
    } catch (err) {
      // class-transformer cannot build some bad bodies at all (a null where a discriminator is read throws a
      // TypeError): the compiled check's own finding then names the place, a 400 and not a 500.
      if (err instanceof HttpException || !found) throw err;
      throw problems.validation(fieldErrorsOf(found));
    }
  }
}

const remembering = new WeakSet<MetadataStorage>();

/**
 * class-validator looks up a class's rules (its own and inherited ones, filtered by groups) and groups them by
 * property for every object it validates: every nested block of every request body, each lookup walking every
 * class that has rules. The rules change only when a class is decorated, so `storage` keeps each lookup and
 * grouping until the next rule is added. Answers are the same arrays as before; only the work is not repeated.
 */
export function rememberValidationRules(storage: MetadataStorage = getMetadataStorage()): void {
  if (remembering.has(storage)) return;
  remembering.add(storage);
  let lookups = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  const forget = () => {
    lookups = new WeakMap();
    grouped = new WeakMap();
  };
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addValidation = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    forget();
    addValidation(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    forget();
    addConstraint(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    let byOptions = lookups.get(target);
    if (byOptions === undefined) lookups.set(target, (byOptions = new Map()));
    const key = `${schema ?? ''}\u0001${always}\u0001${strictGroups}\u0001${groups?.join('\u0001') ?? ''}`;
    let found = byOptions.get(key);
    if (found === undefined) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadatas) => {
    let found = grouped.get(metadatas);
    if (found === undefined) grouped.set(metadatas, (found = group(metadatas)));
    return found;
  };
}

/**
 * Unknown keys (also nested) are refused, not dropped; bodies become DTO instances. Bodies of the `compiled` classes
 * (the hot routes') are checked by a compiled check first; their rules must all have a JSON Schema mapping, or this throws.
 */
export function createValidationPipe(compiled: readonly BodyClass[] = []): ValidationPipe {
  rememberValidationRules();
  return new ProblemValidationPipe(compiled, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    // `value` stays on the error tree (array paths need it) but never reaches a response: messages name fields only.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => problems.validation(flattenValidationErrors(errors)),
  });
}
