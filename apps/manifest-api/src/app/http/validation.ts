import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
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

/** Unknown keys (also nested) are refused, not dropped; bodies become DTO instances. */
export function createValidationPipe(): ValidationPipe {
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
