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
  const missing = missingBlocks(plain);
  if (missing.length > 0) return missing;
  return flattenErrors(validateSync(plainToInstance(PayloadV5Dto, plain), STRICT_VALIDATION));
}

/**
 * class-transformer reads each block's `type` to pick its class, and throws on a null one; a receiver validating a
 * body must get an answer, not an exception, so null blocks are reported before it runs.
 */
function missingBlocks(plain: object): string[] {
  const sections: unknown = (plain as { sections?: unknown }).sections;
  if (!Array.isArray(sections)) return [];
  return sections.flatMap((section: unknown, i) => {
    const blocks: unknown = typeof section === 'object' && section !== null ? (section as { blocks?: unknown }).blocks : undefined;
    if (!Array.isArray(blocks)) return [];
    return blocks.flatMap((block: unknown, j) => (block === null || block === undefined ? [`sections.${i}.blocks.${j}: each block must be an object`] : []));
  });
}
