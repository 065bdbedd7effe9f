import type { TopicName } from '../topics';

/** Class of an event's payload, validated with class-validator when consumed. */
export type PayloadClass<T extends object = object> = new () => T;

/** Everything the plumbing needs to know about one event type: where it goes, its version and shape. */
export interface EventDefinition<T extends object = object> {
  readonly type: string;
  readonly topic: TopicName;
  readonly schemaVersion: number;
  readonly payloadClass: PayloadClass<T>;
  /** The message key; events of one result (or goal) share a key so they stay in order. */
  keyOf(payload: T): string;
}

export function defineEvent<T extends object>(definition: EventDefinition<T>): EventDefinition<T> {
  return Object.freeze(definition);
}
