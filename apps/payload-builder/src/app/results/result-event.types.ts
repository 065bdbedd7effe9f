import type { DeliveryReason } from './result-state';

/** The changes in a result's life that this service sees, stored append-only in `result_events`. */
export type ResultEventData =
  | {
      type: 'revised';
      /** The revision this service uses; equals upstreamRevision unless a 409 re-send already took that number. */
      revision: number;
      upstreamRevision: number;
      goalId: string;
      workspaceId: string;
      textOnlyChange: boolean;
      /** As received (ResultRevisionInput); checked when a payload is built. */
      content: unknown;
      /** The field values manifest-api held when it accepted the revision, and their version (absent in older events). */
      fieldValues?: Record<string, unknown>;
      fieldValuesVersion?: number;
    }
  | { type: 'approved'; revision: number; goalId: string; approvedBy?: string }
  | { type: 'fields-set'; goalId: string; values: Record<string, unknown>; version?: number }
  | { type: 'pending'; revision: number; reason: string }
  | { type: 'needs-approval'; revision: number; reason: string; missingFields: string[] }
  | { type: 'awaiting-approval'; revision: number; reason: string }
  | {
      type: 'frozen';
      revision: number;
      deliveryId: string;
      bodySha256: string;
      event: 'workflow.action' | 'cluster.updated';
      reason: DeliveryReason;
      reasonText: string;
    }
  | { type: 'conflict-resend'; deliveryId: string; conflictRevision: number; revision: number; conflicts: number }
  | { type: 'rejected'; revision: number; reason: string; conflicts?: number };

export type ResultEventType = ResultEventData['type'];

/** One stored row of `result_events`. */
export interface ResultEvent {
  resultId: string;
  seq: number;
  data: ResultEventData;
  occurredAt: Date;
  causedBy: string | null;
}
