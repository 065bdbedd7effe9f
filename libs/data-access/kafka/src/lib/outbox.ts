import type { EntityManager } from 'typeorm';
import { createEnvelope, type EnvelopeContext, type EventDefinition, type EventEnvelope } from '@owd/events';
import { toMessage } from './event-producer';
import { bufferOutboxRows, type CommittedRowsHandler } from './outbox-buffer';
import type { TopicNamer } from './topic-namer';
import { captureTraceContext } from './trace-context';

/**
 * Transactional outbox: the event is written in the caller's transaction, next to the state change
 * it describes, and published by the relay after commit. Nothing is sent for a rolled-back change.
 * The rows of one transaction are inserted together just before it commits, and handed to `onCommitted`
 * (the relay) once it has committed (outbox-buffer.ts).
 * The row keeps the writer's trace context in its headers: the relay publishes later, outside that context.
 */
export class Outbox {
  constructor(private readonly schema: string, private readonly namer: TopicNamer, private readonly onCommitted: CommittedRowsHandler) {}

  async add<T extends object>(
    manager: EntityManager,
    definition: EventDefinition<T>,
    payload: T,
    context: EnvelopeContext,
  ): Promise<EventEnvelope<T>> {
    const [envelope] = await this.addMany(manager, definition, [{ payload, context }]);
    return envelope;
  }

  /**
   * Several events of one type, in the order given (their ids, and so the relay's order, follow it).
   * `trace`: the trace context an event continues, when it is not the caller's (captured where the work happened).
   */
  async addMany<T extends object>(
    manager: EntityManager,
    definition: EventDefinition<T>,
    events: readonly { payload: T; context: EnvelopeContext; trace?: Record<string, string> }[],
  ): Promise<EventEnvelope<T>[]> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('Outbox.add must run inside the transaction that changes the state');
    }
    if (events.length === 0) return [];
    const envelopes = events.map((e) => createEnvelope(definition, e.payload, e.context));
    const messages = envelopes.map((e) => toMessage(this.namer, definition as EventDefinition, e));
    const current = captureTraceContext();
    bufferOutboxRows(manager, messages.map((m, i) => ({
      schema: this.schema, topic: m.topic, key: m.key, value: String(m.value),
      headers: { ...m.headers, ...(events[i].trace ?? current) }, onCommitted: this.onCommitted,
    })));
    return envelopes;
  }
}
