import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { ALL_EVENTS, DeliveryAttempted, GoalChanged, type DeliveryAttemptedPayload, type EventEnvelope } from '@owd/events';
import { EventConsumer, on, type ConsumerSpec } from './event-consumer';
import type { EventProducer } from './event-producer';
import { TopicNamer } from './topic-namer';

const attempt = (final: boolean, n: number) => ({ payload: { final, attempt: n } }) as EventEnvelope<DeliveryAttemptedPayload>;

describe('on (a consumer route)', () => {
  it('keeps the handler and the filter given for the event type', async () => {
    const seen: string[] = [];
    const route = on(DeliveryAttempted, async (envelope) => { seen.push(`attempt ${envelope.payload.attempt}`); }, {
      accepts: ({ payload }) => !payload.final,
    });
    expect(route.definition).toBe(DeliveryAttempted);
    expect(route.accepts?.(attempt(true, 1))).toBe(false);
    expect(route.accepts?.(attempt(false, 1))).toBe(true);
    await route.handle?.(attempt(false, 2), {} as never);
    expect(seen).toEqual(['attempt 2']);
  });

  it('names an event without a handler for a chunk consumer, with or without a filter', () => {
    expect(on(GoalChanged)).toEqual({ definition: GoalChanged, handle: undefined, accepts: undefined, idempotent: false });
    const accepts = () => true;
    expect(on(GoalChanged, { accepts })).toEqual({ definition: GoalChanged, handle: undefined, accepts, idempotent: false });
  });

  it('records event ids unless the route says its handler tells copies itself', () => {
    expect(on(GoalChanged).idempotent).toBe(false);
    expect(on(GoalChanged, { idempotent: true }).idempotent).toBe(true);
    expect(on(GoalChanged, async () => undefined, { idempotent: true }).idempotent).toBe(true);
  });
});

describe('EventConsumer routes', () => {
  // The routes are checked before anything touches Kafka or the database.
  const consumer = (spec: Omit<ConsumerSpec, 'groupId'>) => () =>
    new EventConsumer({} as Kafka, {} as DataSource, {} as EventProducer, new TopicNamer(''), 's', { groupId: 'g', ...spec }, ALL_EVENTS);
  const handle = async () => undefined;

  it('refuses a consumer with no route, a route without a handler, or a chunk consumer whose routes have handlers', () => {
    expect(consumer({ on: [] })).toThrow(/give each route a handler/);
    expect(consumer({ on: [on(GoalChanged, handle), on(DeliveryAttempted)] })).toThrow(/give each route a handler/);
    expect(consumer({ on: [on(GoalChanged, handle)], handleChunk: handle })).toThrow(/give each route a handler/);
  });
});
