import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { problems, type FieldError } from './problem';
import { instanceOf, writeProblem } from './problem.filter';

/** At most this many offending fields are named in one answer. */
const MAX_NAMED_FIELDS = 10;

/** Raised by `refuseNonUtf8`; body-parser keeps its `status` and `type` instead of a 403 `entity.verify.failed`. */
export class NotUtf8Error extends Error {
  readonly status = 415;
  readonly type = 'entity.not.utf8';

  constructor() {
    super('the request body is not valid UTF-8');
  }
}

/**
 * body-parser `verify` hook: refuses bytes that are not UTF-8 (stray bytes, overlong forms, encoded surrogates).
 * The decoder would otherwise store U+FFFD in their place, silently changing the text.
 */
export function refuseNonUtf8(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  if (!isUtf8(body)) throw new NotUtf8Error();
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

const IN_TEXT = 'must not contain the NUL character (U+0000)';
const IN_KEY = 'keys of this object must not contain the NUL character (U+0000)';

/** Fields (`sections[0].blocks[1].text`) whose text holds U+0000; for a key holding it, the object it belongs to. */
export function fieldsWithNul(value: unknown, path = '', found: FieldError[] = []): FieldError[] {
  if (found.length >= MAX_NAMED_FIELDS) return found;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ field: path || '(body)', message: IN_TEXT });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => fieldsWithNul(item, childPath(path, i), found));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (!key.includes('\u0000')) fieldsWithNul(item, childPath(path, key), found);
      else if (found.length < MAX_NAMED_FIELDS) found.push({ field: path || '(body)', message: IN_KEY });
    }
  }
  return found;
}

type Next = (err?: unknown) => void;

/** 400 naming every field (up to 10) that holds U+0000: PostgreSQL text and jsonb cannot store it. Runs after parsing. */
export function refuseNulCharacters(req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: Next): void {
  const errors = fieldsWithNul(req.body);
  if (errors.length === 0) return next();
  const problem = problems.validation(errors, 'Text in the request body must not contain the NUL character (U+0000).');
  writeProblem(res, problem.toProblem(instanceOf(req)));
}
