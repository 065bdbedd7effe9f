import type { EntityManager } from 'typeorm';
import { afterCommit } from '@owd/database';
import { createEnvelope, type EnvelopeContext, type EventDefinition, type EventEnvelope } from '@owd/events';
import { toMessage } from './event-producer';
import type { TopicNamer } from './topic-namer';
import { captureTraceContext } from './trace-context';

/**
 * Transactional outbox: the event is written in the caller's transaction, next to the state change
 * it describes, and published by the relay after commit. Nothing is sent for a rolled-back change.
 * The row keeps the writer's trace context in its headers: the relay publishes later, outside that context.
 */
export class Outbox {
  constructor(private readonly schema: string, private readonly namer: TopicNamer, private readonly onWrite: () => void) {}

  async add<T extends object>(
    manager: EntityManager,
    definition: EventDefinition<T>,
    payload: T,
    context: EnvelopeContext,
  ): Promise<EventEnvelope<T>> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('Outbox.add must run inside the transaction that changes the state');
    }
    const envelope = createEnvelope(definition, payload, context);
    const message = toMessage(this.namer, definition as EventDefinition, envelope);
    await manager.query(
      `INSERT INTO "${this.schema}".outbox (topic, message_key, value, headers) VALUES ($1, $2, $3, $4)`,
      [message.topic, message.key, message.value, JSON.stringify({ ...message.headers, ...captureTraceContext() })],
    );
    // Wake the relay when the row is visible: woken before the commit, it would find nothing and sleep its poll interval.
    afterCommit(manager, this.onWrite);
    return envelope;
  }
}
