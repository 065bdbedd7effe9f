import { createHash } from 'node:crypto';
import type { EventDefinition } from '../envelope/event-definition';
import { CapabilityReported } from '../capability-reported/capability-reported.event';
import { ContractChanged } from '../contract-changed/contract-changed.event';
import { DeliveryAttempted } from '../delivery-attempted/delivery-attempted.event';
import { DeliveryRequested } from '../delivery-requested/delivery-requested.event';
import { DeliveryRetryDue } from '../delivery-retry-due/delivery-retry-due.event';
import { GoalChanged } from '../goal-changed/goal-changed.event';
import { ResultRevised } from '../result-revised/result-revised.event';
import { ResultStatusChanged } from '../result-status/result-status.event';
import { DeliveryRetryRequested, ResultApproved, ResultFieldsSet } from '../result-workflow/result-workflow.events';

export interface EventExample {
  definition: EventDefinition;
  payload: object;
}

/** Typed so an example cannot stray from its payload class; the spec also validates each one. */
function example<T extends object>(definition: EventDefinition<T>, payload: T): EventExample {
  return { definition: definition as unknown as EventDefinition, payload };
}

const resultId = 'res_8f2c1a';
const goalId = '0d8f6c2a-3b1e-4c55-9a77-21f0e3c4b5a6';
const workspaceId = '6a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d';
const deliveryId = '5b0f4c5e-8d7a-4a59-9a40-0d4f1f7c2a11';
const body = '{"id":"res_8f2c1a","revision":2}';

/** One realistic payload per event type, shown as the message example in docs/asyncapi.yaml. */
export const EVENT_EXAMPLES: readonly EventExample[] = [
  example(ResultRevised, {
    resultId, goalId, workspaceId, revision: 2, textOnlyChange: false,
    content: { title: 'Rates unchanged', sections: [] }, fieldValues: { category: 'economy' }, fieldValuesVersion: 1,
  }),
  example(ResultApproved, { resultId, goalId, revision: 2, approvedBy: 'editor@example.com' }),
  example(ResultFieldsSet, { resultId, goalId, values: { category: 'economy' }, fieldValuesVersion: 1 }),
  example(DeliveryRetryRequested, { resultId, goalId, deliveryId }),
  example(ResultStatusChanged, {
    resultId, goalId, revision: 2, status: 'queued', reason: 'approved and complete', missingFields: [], deliveryId,
    announcedRevision: 2,
  }),
  example(GoalChanged, {
    goalId, workspaceId, version: 7, deleted: false, name: 'Daily economy', sourceLang: 'en',
    recipientUrl: 'https://cms.example.com/webhooks/results', deliveryMode: 'production',
    secretCiphertext: 'v1.gcm.bm9uY2U.Y2lwaGVydGV4dA.dGFn', sendImmediately: false, secondLanguageEnabled: true,
    secondLanguage: 'de', publishPolicy: 'draft', fieldDefaults: { category: 'news' }, ownerEmail: 'owner@example.com',
  }),
  example(ContractChanged, {
    goalId, workspaceId, version: 3, origin: 'receiver', sectionTypes: ['text', 'quote'], blockTypes: ['paragraph'],
    fields: [{
      key: 'category', label: 'Category', type: 'enum', required: true, multiple: false,
      options: [{ value: 'economy', label: 'Economy' }, { value: 'politics', label: 'Politics' }],
    }],
  }),
  example(CapabilityReported, {
    goalId, workspaceId, source: 'receiver', sectionTypes: ['text', 'quote'], blockTypes: ['paragraph'],
    fieldKeys: ['category'], requiredFields: [{ key: 'category', label: 'Category' }], reportedAt: '2026-11-20T10:00:00.000Z',
  }),
  example(DeliveryRequested, {
    deliveryId, resultId, goalId, revision: 2, bodyBase64: Buffer.from(body).toString('base64'),
    bodySha256: createHash('sha256').update(body).digest('hex'),
    executedAt: '2026-11-21T10:00:00.000Z', reason: 'first', goalVersion: 3,
  }),
  example(DeliveryRetryDue, { deliveryId, resultId, attempt: 2, dueAt: '2026-11-21T10:01:00.000Z' }),
  example(DeliveryAttempted, {
    deliveryId, resultId, goalId, workspaceId, revision: 2, series: 1, attempt: 1, targetHost: 'cms.example.com', status: 503,
    durationMs: 412, outcome: 'retriable', errorClass: 'server_error', errorMessage: 'receiver answered 503',
    attemptedAt: '2026-11-21T10:00:00.120Z', endedAt: '2026-11-21T10:00:00.532Z', nextAttemptAt: '2026-11-21T10:01:00.532Z', conflictRevision: null,
    response: { headers: { 'content-type': 'text/plain', 'retry-after': '60' }, body: 'maintenance until 10:05', bodyEncoding: 'utf-8', truncated: false },
    final: false,
  }),
];
