/** Logical topic names; the one place they are spelled. The broker name may carry a deployment prefix. */
export const TOPICS = {
  /** manifest-api → payload-builder: a result was accepted or its content changed (new revision). */
  RESULT_REVISED: 'result.revised',
  /** manifest-api → payload-builder, dispatcher: user decisions on a result (approve, field values, manual retry). */
  RESULT_WORKFLOW: 'result.workflow',
  /** payload-builder → manifest-api: why a result is (not yet) sent: needs approval, awaiting approval, queued. */
  RESULT_STATUS: 'result.status',
  /** manifest-api → payload-builder, dispatcher, notifier: a goal's delivery settings changed (secret only encrypted). */
  GOAL_CHANGED: 'goal.changed',
  /** manifest-api → payload-builder, notifier: a goal's content contract was established or changed. */
  CONTRACT_CHANGED: 'contract.changed',
  /** manifest-api → notifier: a capability report of the receiver or a plugin (`source`), emitted on every report; the notifier keeps each source's latest. */
  CAPABILITY_REPORTED: 'capability.reported',
  /** payload-builder → dispatcher (internal): frozen payload bytes of one revision, ready to send. */
  DELIVERY_REQUESTED: 'delivery.requested',
  /** retry-scheduler → dispatcher (internal): a durable retry timer fired. */
  DELIVERY_RETRY_DUE: 'delivery.retry-due',
  /** dispatcher → everyone (public): the outcome of every single attempt. */
  DELIVERY_ATTEMPTED: 'delivery.attempted',
} as const;

/**
 * Largest message every topic of this system takes (its `max.message.bytes`): 4 MiB, set when a topic is created
 * (ensureTopics, deploy/base/kafka-topics.yaml). A broker's default, 1 MiB, is less than events the API accepts:
 * result.revised carries a content of up to 1 MiB beside field values of up to 1 MiB, delivery.requested a body of
 * up to 2 MiB (MAX_BODY_BYTES in @owd/payload) in base64. A message the broker refuses can never be sent, and the
 * outbox relay that holds it would try it again before everything written after it.
 */
export const TOPIC_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export const ALL_TOPICS: readonly TopicName[] = Object.values(TOPICS);

/** Where a message that fails validation is parked, with its reason, so the partition moves on. */
export function deadLetterTopic(topic: TopicName): string {
  return `${topic}.dlq`;
}
