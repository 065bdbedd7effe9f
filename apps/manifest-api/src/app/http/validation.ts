import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { getMetadataStorage, type MetadataStorage } from 'class-validator';
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

/** A body DTO needs a JSON object; class-validator would describe anything else with an empty property name. */
class ProblemValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const expectsObject = metadata.type === 'body' && typeof metadata.metatype === 'function' && metadata.metatype !== Object;
    if (expectsObject && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw problems.validation([], 'The request body must be a JSON object (Content-Type: application/json).');
    }
    return super.transform(value, metadata);
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

/** Unknown keys (also nested) are refused, not dropped; bodies become DTO instances. */
export function createValidationPipe(): ValidationPipe {
  rememberValidationRules();
  return new ProblemValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    // `value` stays on the error tree (array paths need it) but never reaches a response: messages name fields only.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => problems.validation(flattenValidationErrors(errors)),
  });
}
