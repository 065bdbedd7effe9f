import { PAYLOAD_MODES, type ResultRevisionInput } from '@owd/payload';

export type ContentCheck = { ok: true; content: ResultRevisionInput } | { ok: false; problem: string };

type Check = [key: string, test: (value: unknown) => boolean, expected: string];

const isString = (v: unknown) => typeof v === 'string';
const isNullableString = (v: unknown) => v === null || typeof v === 'string';
const isNumber = (v: unknown) => typeof v === 'number';
const isRecord = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isArray = (v: unknown) => Array.isArray(v);

const CHECKS: Check[] = [
  ['resultId', isString, 'a string'],
  ['revision', isNumber, 'a number'],
  ['mode', (v) => (PAYLOAD_MODES as readonly unknown[]).includes(v), `one of ${PAYLOAD_MODES.join(', ')}`],
  ['workflowExecution', isString, 'a string'],
  ['parentExecution', (v) => v === undefined || isNullableString(v), 'a string or null'],
  ['executedAt', isString, 'a string'],
  ['title', isNullableString, 'a string or null'],
  ['lead', isNullableString, 'a string or null'],
  ['body', isNullableString, 'a string or null'],
  ['sourceLang', isString, 'a string'],
  ['locales', isRecord, 'an object'],
  ['steps', isRecord, 'an object'],
  ['articles', isArray, 'an array'],
  ['clusters', isArray, 'an array'],
  ['newArticles', (v) => v === undefined || (Array.isArray(v) && v.every(isString)), 'an array of strings'],
  ['sections', isArray, 'an array'],
  ['image', (v) => v === null || isRecord(v), 'an object or null'],
  ['aiModel', isString, 'a string'],
  ['tokensUsed', isNumber, 'a number'],
  ['cost', isNumber, 'a number'],
];

/**
 * The `content` of `result.revised` travels as a plain object; this checks its outline before it is treated as a
 * ResultRevisionInput. The builder checks the rest (timestamps, numbers, blocks) and throws typed errors.
 */
export function checkRevisionContent(raw: unknown, resultId: string): ContentCheck {
  if (!isRecord(raw)) return { ok: false, problem: 'content is not an object' };
  const record = raw as Record<string, unknown>;
  const wrong = CHECKS.filter(([key, test]) => !test(record[key])).map(([key, , expected]) => `content.${key} must be ${expected}`);
  if (wrong.length === 0) wrong.push(...givenHtml(record['locales'] as Record<string, unknown>));
  if (wrong.length > 0) return { ok: false, problem: wrong.join('; ') };
  if (record['resultId'] !== resultId) return { ok: false, problem: `content.resultId ${String(record['resultId'])} is not ${resultId}` };
  return { ok: true, content: raw as unknown as ResultRevisionInput };
}

/**
 * `bodyHtml` lets content of our own making (the API's Send test sample) skip rendering; the API refuses it in a
 * customer's content, and an event carrying it is refused here too: body_html is always rendered and sanitized here.
 */
function givenHtml(locales: Record<string, unknown>): string[] {
  return Object.entries(locales)
    .filter(([, entry]) => isRecord(entry) && 'bodyHtml' in (entry as object))
    .map(([lang]) => `content.locales.${lang}.bodyHtml is not taken from an event (body_html is rendered from the body)`);
}
