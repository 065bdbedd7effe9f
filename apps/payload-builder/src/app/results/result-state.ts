import type { ResultEvent } from './result-event.types';

/** Where a result stands here: `new` has no content yet, `pending` waits for its goal's settings. */
export const RESULT_STATES = ['new', 'pending', 'needs_approval', 'awaiting_approval', 'queued', 'rejected'] as const;
export type ResultState = (typeof RESULT_STATES)[number];

export type DeliveryReason = 'first' | 'revision' | 'conflict';

/** The projection row of one result (`results`), a pure fold of its `result_events`. */
export interface ResultProjection {
  resultId: string;
  goalId: string | null;
  workspaceId: string | null;
  /** Current revision; 0 while no content arrived. */
  revision: number;
  /** Highest revision announced by `result.revised`; older or repeated announcements are ignored. */
  upstreamRevision: number;
  textOnlyChange: boolean;
  content: unknown;
  state: ResultState;
  stateReason: string | null;
  /** The revision the current state was decided for. */
  stateRevision: number;
  missingFields: string[];
  approvedRevision: number;
  /** Per-result receiver field values, the latest saved set (the goal's defaults are applied when reading). */
  fieldValues: Record<string, unknown>;
  /** The version of that set (`result.fields-set`); 0 while none was saved or the events carried none. */
  fieldValuesVersion: number;
  frozenRevisions: number[];
  lastDeliveryId: string | null;
  conflicts: number;
  /** Revision created by the latest 409 re-send (0 when none). */
  conflictRevision: number;
  lastSeq: number;
  updatedAt: Date | null;
}

export function emptyProjection(resultId: string): ResultProjection {
  return {
    resultId, goalId: null, workspaceId: null, revision: 0, upstreamRevision: 0, textOnlyChange: false, content: null,
    state: 'new', stateReason: null, stateRevision: 0, missingFields: [], approvedRevision: 0, fieldValues: {}, fieldValuesVersion: 0, frozenRevisions: [],
    lastDeliveryId: null, conflicts: 0, conflictRevision: 0, lastSeq: 0, updatedAt: null,
  };
}

/** Applies one lifecycle event. Pure, so a rebuild from `result_events` gives exactly the live projection. */
export function applyResultEvent(state: ResultProjection, event: ResultEvent): ResultProjection {
  const next: ResultProjection = { ...state, lastSeq: event.seq, updatedAt: event.occurredAt };
  const data = event.data;
  switch (data.type) {
    case 'revised':
      return {
        ...next, goalId: data.goalId, workspaceId: data.workspaceId, revision: data.revision,
        upstreamRevision: data.upstreamRevision, textOnlyChange: data.textOnlyChange, content: data.content,
        ...newerFieldValues(state, data.fieldValues, data.fieldValuesVersion, 'carried'),
      };
    case 'approved':
      return { ...next, goalId: state.goalId ?? data.goalId, approvedRevision: Math.max(state.approvedRevision, data.revision) };
    case 'fields-set':
      // The Delivery tab saves the result's whole set of values: it replaces the previous one (unless that is newer).
      return { ...next, goalId: state.goalId ?? data.goalId, ...newerFieldValues(state, data.values, data.version, 'saved') };
    case 'pending':
      return { ...next, ...decided('pending', data), missingFields: [] };
    case 'needs-approval':
      return { ...next, ...decided('needs_approval', data), missingFields: [...data.missingFields] };
    case 'awaiting-approval':
      return { ...next, ...decided('awaiting_approval', data), missingFields: [] };
    case 'frozen':
      return {
        ...next, ...decided('queued', { revision: data.revision, reason: data.reasonText }), missingFields: [],
        lastDeliveryId: data.deliveryId,
        frozenRevisions: [...state.frozenRevisions, data.revision],
      };
    case 'conflict-resend':
      // The re-send repeats content that was already cleared for sending, so it carries that approval.
      return {
        ...next, revision: data.revision, conflicts: data.conflicts, conflictRevision: data.revision,
        approvedRevision: Math.max(state.approvedRevision, data.revision),
      };
    case 'rejected':
      return { ...next, ...decided('rejected', data), missingFields: [], conflicts: data.conflicts ?? state.conflicts };
  }
}

function decided(state: ResultState, data: { revision: number; reason: string }): Pick<ResultProjection, 'state' | 'stateReason' | 'stateRevision'> {
  return { state, stateReason: data.reason, stateRevision: data.revision };
}

/**
 * The field values to hold after an event that brings a set: `result.fields-set` (saved) and `result.revised` (the set
 * manifest-api held when it accepted the revision, carried) are on topics not ordered with each other, so the set with
 * the higher version wins. A carried set replaces only a strictly older one (at the same version both sets are the
 * same, and a new result's revision carries the empty set, version 0); a saved set replaces one at most as new. An
 * event without a version (written before versions existed) replaces the set, as it always did.
 */
function newerFieldValues(
  state: ResultProjection, values: Record<string, unknown> | undefined, version: number | undefined, kind: 'carried' | 'saved',
): Pick<ResultProjection, 'fieldValues' | 'fieldValuesVersion'> {
  const held = { fieldValues: state.fieldValues, fieldValuesVersion: state.fieldValuesVersion };
  if (values === undefined) return held;
  if (version === undefined) return { fieldValues: { ...values }, fieldValuesVersion: state.fieldValuesVersion };
  const newer = kind === 'carried' ? version > state.fieldValuesVersion : version >= state.fieldValuesVersion;
  return newer ? { fieldValues: { ...values }, fieldValuesVersion: version } : held;
}
