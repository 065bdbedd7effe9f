import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PayloadV5Dto } from './payload-v5.dto';
import { flattenErrors } from './validators/flatten-errors';
import { STRICT_VALIDATION } from './validators/validation-options';

/**
 * Checks a parsed body against payload v5 with class-validator, unknown keys included.
 * Returns "path: message" lines; an empty array means valid.
 */
export function validatePayload(plain: unknown): string[] {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return ['payload must be a JSON object'];
  return flattenErrors(validateSync(plainToInstance(PayloadV5Dto, plain), STRICT_VALIDATION));
}
