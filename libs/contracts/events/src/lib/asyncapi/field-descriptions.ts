/**
 * Field descriptions by class and property: TypeScript comments do not survive to run time, so the ones
 * a reader outside needs are kept here (the builder refuses a description of a property that is gone).
 */
export const FIELD_DESCRIPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  EventEnvelope: {
    eventId: 'Unique per event; consumers are idempotent on it (delivery is at least once).',
    type: 'The event type; together with `schemaVersion` it names the payload schema.',
    schemaVersion: 'Version of the payload schema of this event type.',
    occurredAt: 'When the producer recorded the event (ISO 8601, UTC).',
    correlationId: 'The id of the request or result that started the chain; the same on every event it caused.',
    causationId: "The event id (or request id) that directly caused this one; null for a chain's first event.",
    key: 'Equal to the Kafka message key (see the message bindings).',
    payload: 'The event payload; its schema depends on `type` and `schemaVersion`.',
  },
  ResultRevisedPayload: {
    textOnlyChange: 'True when only the text changed (no new cluster version): spec §6 rule 1.',
    content: 'The result content as submitted to the API (payload builder input, see docs/payload.md).',
    fieldValues: 'Per-result receiver field values entered on the Delivery tab, as they were when this revision was accepted.',
    fieldValuesVersion:
      'The `result.fields-set` version `fieldValues` is (0 while none was saved). This topic is not ordered with ' +
      '`result.workflow`: a consumer keeps the set with the higher version, so values saved after the revision are never ' +
      'replaced by the older set it carries. Optional so older producers stay valid.',
  },
  ResultFieldsSetPayload: {
    values: "The result's whole set of receiver field values: it replaces the previous set.",
    fieldValuesVersion:
      "Grows by one with every saved set of this result (1 for the first). `result.revised` carries the version of the set it " +
      'holds, so a consumer keeps whichever is newer. Optional so older producers stay valid.',
  },
  ResultApprovedPayload: {
    revision: 'The revision approved, numbered as `result.status` reported it; payload-builder sends it (or a later one) once ready.',
  },
  ResultStatusChangedPayload: {
    missingFields: 'Required receiver fields without a value (status needs_approval).',
    deliveryId: 'Set when status is queued: the delivery that carries the frozen bytes.',
    revision: 'The revision number payload-builder gave this version: the one the receiver gets and a user approves.',
    announcedRevision:
      'The revision `result.revised` announced for the content `revision` carries. It differs from `revision` when a 409 ' +
      're-send repeats that content under a higher number, or took the announced number first; optional so older producers stay valid.',
  },
  GoalChangedPayload: {
    version: 'Grows with every change; consumers ignore a snapshot older than the one they hold.',
    secretCiphertext: 'AES-256-GCM ciphertext of the secret (associated data = goal id); the clear secret never travels.',
    ownerEmail: 'Where the weekly contract notice goes (notifier); optional so older producers stay valid.',
  },
  CapabilityReportedPayload: {
    source: '`receiver` for an HTTP-address receiver; anything else is a plugin report (spec §2.4).',
    requiredFields: "The report's required fields (key and label), so the weekly notice can name new ones the contract lacks; optional so older producers stay valid.",
    reportedAt: 'When the report arrived at manifest-api (UTC).',
  },
  DeliveryRequestedPayload: {
    deliveryId: 'X-SH-Delivery: one series of attempts of one content.',
    bodyBase64: 'The exact request body every attempt sends (base64).',
    bodySha256: 'Hex SHA-256 of the body; the dispatcher checks the bytes against it before sending.',
    goalVersion: "The goal.changed version the body was built under: the dispatcher waits until its copy of the goal's delivery settings is at least this new (mode, URL, secret), so a switch to Production made before the result is never sent under the older Test settings. Optional so older producers stay valid.",
  },
  DeliveryAttemptedPayload: {
    deliveryId: 'X-SH-Delivery header of the request: the same for every attempt of the same bytes, manual retries included.',
    workspaceId:
      "The goal's workspace: scope by it without reading goal.changed (internal). Null only for a goal whose settings the " +
      'dispatcher stored before this field existed, until the goal next changes.',
    series:
      'Series of attempts of this delivery: 1 for the automatic series, one more for each manual retry (which starts ' +
      'again at attempt 1). `(deliveryId, series, attempt)` names one attempt: deduplicate on it (or on the envelope eventId).',
    resultId: 'The result delivered; also the message key and the Idempotency-Key header the receiver saw.',
    goalId: 'The goal (receiver configuration) the result belongs to.',
    revision: 'Revision of the result content these bytes carry.',
    attempt: 'Attempt number within the series, 1 to 3 (a manual retry starts a new `series` at 1).',
    targetHost: 'Host the request went to (the development sink for goals in test mode).',
    status: 'HTTP status of the answer; null when there was no complete answer (timeout, connection failure, not sent).',
    durationMs: 'Duration of the attempt in milliseconds (0 when nothing was sent).',
    outcome:
      'delivered (2xx), retriable (429, 5xx, timeout, connection failure), permanent (other 4xx, 3xx, or not sendable), ' +
      'conflict (409 naming a newer revision), refused (address restriction). See docs/delivery.md.',
    errorClass:
      'Machine-readable cause, null when delivered; an open set, e.g. rate_limited, server_error, timeout, ' +
      'connection_failed, conflict, client_error, redirect, address_refused (the full table is in docs/delivery.md).',
    errorMessage: 'Readable cause for people; null when delivered. Never contains the secret.',
    attemptedAt: 'When the attempt started (UTC).',
    endedAt:
      'When the attempt ended: the answer, the timeout, the connection failure or the decision not to send (UTC). ' +
      'Always set by the dispatcher; absent only in events written before it existed.',
    nextAttemptAt:
      'When the next automatic attempt is due: endedAt plus the retry delay (spec §3: about 1 minute, then about 5 minutes ' +
      'after the failure); null when this attempt ended the delivery.',
    conflictRevision: 'The revision a 409 answer reported (spec §4.1); null otherwise.',
    response:
      "The receiver's answer: its headers (up to 4 KiB, repeated ones joined with \", \") and the first 4 KiB of its body exactly " +
      'as received, never decompressed: text when bodyEncoding is utf-8 (the bytes are UTF-8 without NUL), else the bytes in base64; ' +
      'truncated says something was cut. Null when no answer arrived; absent in events written before it existed.',
    final: 'True when no further automatic attempt follows (delivered, failed, permanent, refused, conflict).',
  },
};
