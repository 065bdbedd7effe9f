/**
 * Which number a result's next revision gets (spec §6: revisions only grow). payload-builder owns the numbers and
 * reports each one on `result.status`; manifest-api announces the next content as `highest + 1` and applies the same
 * rule to predict a number until payload-builder's report arrives.
 */

/** A content change announced as `announced`, when `highest` is the highest revision already in use. */
export function nextContentRevision(announced: number, highest: number): number {
  return Math.max(announced, highest + 1);
}

/** The re-send of revision `current` after the receiver answered 409 naming `known` (§3): above both. */
export function conflictResendRevision(known: number, current: number): number {
  return Math.max(known, current) + 1;
}
