import type { AttemptResult } from './attempt-result';
import { refused } from './classify-error';

/**
 * The result of an attempt that `checkTarget` refused before sending: nothing left the process,
 * and the message names the rule exactly as a refusal at connect time would.
 */
export function refusedAttempt(url: string, rule: string, reason: string): AttemptResult {
  let targetHost = '';
  try {
    targetHost = new URL(url).host;
  } catch {
    // an unparsable URL has no host; the rule (invalid-url) says why
  }
  return {
    ...refused(rule, reason),
    status: null, headers: {}, body: '', bodyBytes: Buffer.alloc(0), bodyTruncated: false, durationMs: 0, targetHost,
  };
}
