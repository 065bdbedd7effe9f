import { TOPICS, type TopicName } from '../topics';

export const SERVICES = ['manifest-api', 'payload-builder', 'dispatcher', 'retry-scheduler', 'notifier'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface TopicConsumer {
  service: ServiceName;
  /** Event types it handles; omitted when it handles every event of the topic. */
  events?: readonly string[];
}

export interface TopicRole {
  producer: ServiceName;
  consumers: readonly TopicConsumer[];
  /** Public topics are a contract with systems outside this repository; internal ones may change with it. */
  audience: 'internal' | 'public';
  summary: string;
}

/**
 * Who writes and who reads each topic (docs/architecture.md, "Topics"); the code cannot tell, so it is
 * kept here, and a test holds it equal to that table.
 */
export const TOPIC_ROLES: Readonly<Record<TopicName, TopicRole>> = {
  [TOPICS.RESULT_REVISED]: {
    producer: 'manifest-api',
    consumers: [{ service: 'payload-builder' }],
    audience: 'internal',
    summary: 'A result was accepted or its content changed (a new revision).',
  },
  [TOPICS.RESULT_WORKFLOW]: {
    producer: 'manifest-api',
    consumers: [
      { service: 'payload-builder', events: ['result.approved', 'result.fields-set'] },
      { service: 'dispatcher', events: ['delivery.retry-requested'] },
    ],
    audience: 'internal',
    summary: 'User decisions on a result: approve, receiver field values, manual retry of a failed delivery.',
  },
  [TOPICS.RESULT_STATUS]: {
    producer: 'payload-builder',
    consumers: [{ service: 'manifest-api' }],
    audience: 'internal',
    summary: 'Why a revision is (not yet) sent: needs approval (which fields), awaiting approval, queued, rejected.',
  },
  [TOPICS.GOAL_CHANGED]: {
    producer: 'manifest-api',
    consumers: [{ service: 'payload-builder' }, { service: 'dispatcher' }, { service: 'notifier' }],
    audience: 'internal',
    summary: "A full snapshot of a goal's delivery settings; the secret travels only sealed (AES-256-GCM).",
  },
  [TOPICS.CONTRACT_CHANGED]: {
    producer: 'manifest-api',
    consumers: [{ service: 'payload-builder' }, { service: 'notifier' }],
    audience: 'internal',
    summary: "A goal's content contract was established from a receiver report or set by hand.",
  },
  [TOPICS.CAPABILITY_REPORTED]: {
    producer: 'manifest-api',
    consumers: [{ service: 'notifier' }],
    audience: 'internal',
    summary: 'Every capability report of a receiver (or plugin), changed or not: its types, field keys and time.',
  },
  [TOPICS.DELIVERY_REQUESTED]: {
    producer: 'payload-builder',
    consumers: [{ service: 'dispatcher' }],
    audience: 'internal',
    summary: 'The frozen payload bytes of one revision, ready to send; every attempt sends exactly these bytes.',
  },
  [TOPICS.DELIVERY_RETRY_DUE]: {
    producer: 'retry-scheduler',
    consumers: [{ service: 'dispatcher' }],
    audience: 'internal',
    summary: 'A durable retry timer fired: the dispatcher makes the next attempt of a delivery.',
  },
  [TOPICS.DELIVERY_ATTEMPTED]: {
    producer: 'dispatcher',
    consumers: [{ service: 'retry-scheduler' }, { service: 'manifest-api' }, { service: 'payload-builder' }],
    audience: 'public',
    summary:
      'The outcome of every HTTP attempt the dispatcher makes to deliver a result to its receiver. Send test (POST ' +
      '/api/goals/{goalId}/send-test) is a synchronous check answered in the HTTP response and is not on this topic. ' +
      'Public: any system may read it with a consumer group of its own.',
  },
};

/** One line per event type, for the message summary. */
export const EVENT_SUMMARIES: Readonly<Record<string, string>> = {
  'result.revised': 'A result was accepted or its content changed; `revision` grows with every content change.',
  'result.approved': 'A user approved a result for sending (Approve / Dispatch in the result panel).',
  'result.fields-set': 'Per-result receiver field values were saved on the Delivery tab (already validated).',
  'delivery.retry-requested': 'Manual retry of a failed delivery: same content, same delivery id.',
  'result.status-changed': "The payload-builder's readiness decision for a revision, with a reason a person can read.",
  'goal.changed': 'The full current settings of a goal; consumers ignore a snapshot older than the one they hold.',
  'contract.changed': "A goal's content contract (types and receiver fields) was established or changed.",
  'capability.reported': 'A receiver (or plugin) reported what it can render; emitted on every report.',
  'delivery.requested': 'Frozen payload bytes of one (result, revision) and why they are sent.',
  'delivery.retry-due': 'A durable retry timer fired: the dispatcher makes attempt `attempt` of the delivery.',
  'delivery.attempted': 'One attempt to deliver a revision to its receiver, and its outcome (never a Send test).',
};
