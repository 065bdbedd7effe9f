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
    state: 'new', stateReason: null, stateRevision: 0, missingFields: [], approvedRevision: 0, fieldValues: {}, frozenRevisions: [],
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
        fieldValues: data.fieldValues ? { ...data.fieldValues } : state.fieldValues,
      };
    case 'approved':
      return { ...next, goalId: state.goalId ?? data.goalId, approvedRevision: Math.max(state.approvedRevision, data.revision) };
    case 'fields-set':
      // The Delivery tab saves the result's whole set of values: it replaces the previous one.
      return { ...next, goalId: state.goalId ?? data.goalId, fieldValues: { ...data.values } };
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
