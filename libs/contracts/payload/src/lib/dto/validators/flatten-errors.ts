import { ValidationError } from 'class-validator';

/** Turns class-validator's error tree into "path: message" lines. */
export function flattenErrors(errors: readonly ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent === '' ? error.property : `${parent}.${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
    return [...own, ...flattenErrors(error.children ?? [], path)];
  });
}
