import { Logger } from '@nestjs/common';
import type { Span } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import { deferWrite } from '@owd/database';
import { compileChecks, definitionMap, parseEnvelope, type EventDefinition, type EventEnvelope, type TopicName } from '@owd/events';
import { ConsumerLag } from './consumer-lag';
import type { EventProducer } from './event-producer';
import { countKafkaRequests, messagingMetrics } from './metrics';
import type { TopicNamer } from './topic-namer';
import { captureTraceContext, eventAttributes, withConsumerSpan, type TraceCarrier } from './trace-context';

/** Most messages of one partition handled in one database transaction. */
const CHUNK_SIZE = 100;
/**
 * Partitions whose batches are handled at once by default. The batches of one fetch that reach the consumer together
 * are handled in ONE transaction (`together`), so this is how many partitions share a transaction, not how many
 * transactions run at once.
 */
const PARTITIONS_AT_ONCE = 12;
/**
 * How long a consumed event id is remembered. A copy arrives within seconds to minutes (a redelivery before the
 * offset commit, a relay that published and died before marking its rows); a day is far beyond either.
 */
const PROCESSED_RETAIN_MS = 24 * 3_600_000;
const PURGE_EVERY_MS = 60_000;
/**
 * How long a handled message's offset may wait before it is committed to Kafka. Its effect and its event id are
 * already committed in the database, so a position not yet committed costs only a replay of those messages after
 * a crash or a rebalance, each recognised as a copy. One OffsetCommit a second per consumer instead of one per chunk.
 */
const COMMIT_OFFSETS_EVERY_MS = 1_000;
/** What a consumer off the latency path lets the broker gather before it answers a fetch (`fetchWaitMs`). */
const FETCH_FILL_BYTES = 64 * 1024;
/**
 * Most bytes one fetch brings, all partitions together (kafkajs's default is 10 MiB, 1 MiB a partition). A consumer far
 * behind fills every fetch, and holds it while its batches are handled: the dispatcher catching up on a backlog of
 * `delivery.requested` (~7 KB each) peaked at 174–177 MB with the default and 142–144 MB with this, delivering as fast
 * (docs/performance.md, forty-fifth round). A caught-up consumer's fetches are far smaller either way. A larger message
 * still comes: the broker always returns the first batch of the first partition with data, whatever its size (KIP-74),
 * and kafkajs asks for the partitions in a new order each time.
 */
const FETCH_MAX_BYTES = 1024 * 1024;

/** Kafka headers as strings; a repeated header keeps its first value. */
function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) text[name] = first.toString();
  }
  return text;
}

/** A chunk held copies of events handled before: it rolls back and is done again, the copies skipped. */
class SeenBefore extends Error {
  constructor(copies: number) {
    super(`${copies} event(s) of the chunk were handled before`);
  }
}

/** Consecutive messages of one partition: what a chunk is made of. */
interface Part {
  topic: string;
  partition: number;
  messages: KafkaMessage[];
}

/** A message of a chunk with its envelope parsed (or why it could not be). */
interface ParsedMessage {
  /** Which of the chunk's parts it came from. */
  index: number;
  part: Part;
  topic: TopicName;
  message: KafkaMessage;
  parsed: ReturnType<typeof parseEnvelope>;
  /** The route that takes its event (its type's, when it accepts it); none: the message is skipped or parked. */
  route: EventRoute | undefined;
}

/** A chunk being processed: its messages, and what processing them counted, parked and left for the chunk handler. */
interface Chunk {
  parsed: ParsedMessage[];
  /** Whether this consumer handles any of its messages (then it runs in a transaction). */
  handles: boolean;
  /** The event ids of the messages this consumer handles, but for those of idempotent routes (not recorded). */
  handledIds: string[];
  record: 'first' | 'at-commit';
  /** The handled ids not seen before; each is taken out as its message is handled. */
  fresh: Set<string>;
  counted: { topic: TopicName; type: string; result: string }[];
  invalid: { part: number; message: KafkaMessage; reason: string }[];
  forChunk: { topic: TopicName; event: ChunkEvent }[];
}

/** A part waiting for the others of its fetch; told whether it parked a message, or `undefined`: do it alone. */
interface Gathered {
  part: Part;
  done: (parked: boolean | undefined) => void;
}

/** Handles one event of type T in the transaction of its chunk. */
export type EventHandler<T extends object = object> = (envelope: EventEnvelope<T>, manager: EntityManager) => Promise<void>;

/** Which events of a type concern a consumer; the others are skipped like unknown types (no transaction, no record). */
export type EventFilter<T extends object = object> = (envelope: EventEnvelope<T>) => boolean;

/**
 * One event type a consumer takes, made by `on`: the definition, which of its events concern the consumer, and its
 * handler (none when the consumer handles its chunks at once).
 */
export interface EventRoute {
  readonly definition: EventDefinition;
  readonly handle?: EventHandler;
  readonly accepts?: EventFilter;
  readonly idempotent?: boolean;
}

export interface RouteOptions<T extends object> {
  /** Which of these events concern the consumer (default all). */
  accepts?: EventFilter<T>;
  /**
   * The handler itself recognises a copy of an event it has handled, by what it wrote (a row's unique key with
   * `ON CONFLICT DO NOTHING`, a revision it compares), for as long as those rows are kept: so the consumer does not
   * record these events' ids (no `processed_events` row, index entries and conflict check per event). A copy then
   * reaches the handler, even one in the same chunk, counted as processed; the handler must give it no second effect,
   * and should log it. Default false: the id is recorded and a copy never reaches the handler.
   */
  idempotent?: boolean;
}

/**
 * The one way a consumer names what it takes: `on(GoalChanged, (envelope, manager) => …)` gives the handler the
 * envelope typed by the event's payload; `on(ResultRevised)` only names an event that a chunk handler takes.
 */
export function on<T extends object>(definition: EventDefinition<T>, handle: EventHandler<T>, options?: RouteOptions<T>): EventRoute;
export function on<T extends object>(definition: EventDefinition<T>, options?: RouteOptions<T>): EventRoute;
export function on<T extends object>(
  definition: EventDefinition<T>, handleOrOptions?: EventHandler<T> | RouteOptions<T>, options: RouteOptions<T> = {},
): EventRoute {
  const handle = typeof handleOrOptions === 'function' ? handleOrOptions : undefined;
  const { accepts, idempotent = false } = typeof handleOrOptions === 'object' ? handleOrOptions : options;
  // The consumer calls a route's functions only with envelopes of its own definition (routes are looked up by type).
  return {
    definition: definition as EventDefinition, handle: handle as EventHandler | undefined, accepts: accepts as EventFilter | undefined, idempotent,
  };
}

/**
 * A new event of a chunk (or a copy, for a route marked idempotent, whose handler tells it): a chunk may hold several
 * partitions' events, each partition's in order.
 */
export interface ChunkEvent {
  /** Told apart by type with `is(envelope, Event)`. */
  envelope: EventEnvelope;
  /** The event's CONSUMER span context: what a row written for it stores to continue its trace later. */
  trace: TraceCarrier;
}

/**
 * Handles a chunk's new events at once, in the chunk's transaction: a fixed number of set-based statements
 * whatever the chunk's size. It runs outside the events' own trace contexts: what it writes to continue an
 * event's trace (a work row, an outbox event) takes that event's `trace`.
 */
export type ChunkHandler = (events: readonly ChunkEvent[], manager: EntityManager) => Promise<void>;

export interface ConsumerSpec {
  /** Consumer group, unique per service and purpose (e.g. `dispatcher.requests`). */
  groupId: string;
  /**
   * The event types this consumer takes, one `on(…)` each; other types on the same topics are skipped and committed.
   * Each route's handler takes its events one at a time, in their CONSUMER spans (what a handler writes to the
   * outbox continues that trace); events a route does not accept are counted as ignored, with no transaction and
   * no record — they have no effect to guard against repeating.
   */
  on: readonly EventRoute[];
  /** Or the chunk's events at once: then the routes carry no handler. */
  handleChunk?: ChunkHandler;
  /** Partitions whose batches are taken at once, and so handled in one transaction (default `PARTITIONS_AT_ONCE`). */
  partitionsConsumedConcurrently?: number;
  /** Start of a new group: true reads the topics' history (the default, so no event is missed). */
  fromBeginning?: boolean;
  /** How long the group waits for a silent member before handing its partitions to another. */
  sessionTimeoutMs?: number;
  /** How long handled event ids are kept to recognise copies (default a day). */
  processedRetentionMs?: number;
  /** How long a handled position may wait before it is committed to Kafka (default `COMMIT_OFFSETS_EVERY_MS`). */
  commitOffsetsEveryMs?: number;
  /**
   * For a consumer off the latency path (a retry timer's bookkeeping, a 409's resend): the broker may hold a fetch
   * this long to fill it with up to 64 KiB, so a busy topic costs a few fetches a second instead of one per message
   * or two. Unset: the broker answers as soon as anything is there.
   */
  fetchWaitMs?: number;
  /**
   * After a batch that brought the consumer to the end of its partition, how long it waits before kafkajs fetches
   * again (kafkajs fetches once the last fetch's batches are handled), so what arrives meanwhile comes in one fetch
   * and one transaction instead of one each. A consumer with nothing to do stays in the broker's long poll, and a
   * message after a quiet spell is not held. MessagingService gives every consumer KAFKA_CONSUMER_LINGER_MS.
   * Unset or 0: fetch again at once.
   */
  lingerMs?: number;
}

/**
 * Runs one consumer group with the delivery rules of the system:
 * auto-commit off; the handler's effect and the event id are committed in one database transaction
 * (so a redelivered event has no second effect); the offset is committed only after that, at most once a second;
 * a message that fails validation goes to `<topic>.dlq` with its reason and the partition moves on.
 */
export class EventConsumer {
  private readonly logger = new Logger(EventConsumer.name);
  private consumer: Consumer;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly definitions: Map<string, EventDefinition>;
  /** The routes by `type@schemaVersion`. */
  private readonly routes: Map<string, EventRoute>;
  private readonly lag: ConsumerLag;
  private lastPurge = 0;
  private inGroup = false;
  /** Positions handled but not yet committed to Kafka, by topic and partition: the next offset to read. */
  private readonly uncommitted = new Map<string, { topic: string; partition: number; offset: string }>();
  private commitTimer: NodeJS.Timeout | undefined;
  /** Parts that reached the consumer in this turn of the event loop (`together`); undefined when none waits. */
  private gathering: Gathered[] | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly dataSource: DataSource,
    private readonly producer: EventProducer,
    private readonly namer: TopicNamer,
    private readonly schema: string,
    private readonly spec: ConsumerSpec,
    allEvents: readonly EventDefinition[],
  ) {
    const withHandler = spec.on.filter((route) => route.handle !== undefined).length;
    if (spec.on.length === 0 || withHandler !== (spec.handleChunk ? 0 : spec.on.length)) {
      throw new Error(`consumer ${spec.groupId}: give each route a handler, or handleChunk and routes without one`);
    }
    this.definitions = definitionMap(allEvents);
    const topics = new Set(spec.on.map((route) => route.definition.topic));
    compileChecks(allEvents.filter((definition) => topics.has(definition.topic)));
    this.routes = new Map(spec.on.map((route) => [`${route.definition.type}@${route.definition.schemaVersion}`, route]));
    this.lag = new ConsumerLag(spec.groupId);
    this.consumer = this.createConsumer();
  }

  private createConsumer(): Consumer {
    const consumer = this.kafka.consumer({
      groupId: this.namer.group(this.spec.groupId), allowAutoTopicCreation: false,
      sessionTimeout: this.spec.sessionTimeoutMs ?? 30_000, heartbeatInterval: 1_000,
      maxBytes: FETCH_MAX_BYTES,
      ...(this.spec.fetchWaitMs === undefined ? {} : { minBytes: FETCH_FILL_BYTES, maxWaitTimeInMs: this.spec.fetchWaitMs }),
    });
    this.inGroup = false;
    // Positions of a consumer that crashed are not committed by the next one: their messages come again, as copies.
    this.uncommitted.clear();
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    countKafkaRequests(consumer);
    consumer.on(consumer.events.GROUP_JOIN, () => { this.inGroup = true; });
    consumer.on(consumer.events.CRASH, () => { this.inGroup = false; });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.lag.retain(Object.fromEntries(
      Object.entries(payload.memberAssignment).map(([topic, partitions]) => [this.namer.logical(topic), partitions]))));
    // kafkajs restarts a crashed consumer only for errors it deems retriable. After a broker restart a
    // commit can fail with "the coordinator is not aware of this member", which it does not: the consumer
    // would stay down for good while the service looks healthy. Such a crash is restarted here.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && !this.stopping) this.scheduleRestart(payload.error, 1_000);
    });
    return consumer;
  }

  private scheduleRestart(cause: Error, delayMs: number, what = 'consumer crashed'): void {
    this.logger.error({ msg: `${what}; it is started again`, group: this.spec.groupId, err: cause.message, inMs: delayMs });
    messagingMetrics.consumerRestarts.inc({ group: this.spec.groupId });
    clearTimeout(this.restartTimer);
    const failed = this.consumer;
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      // A consumer that failed to start is still connected: its connections go before the next one opens its own.
      failed.disconnect().catch(() => undefined).finally(() => {
        if (this.stopping) return;
        this.consumer = this.createConsumer();
        this.start().catch((err: Error) => this.scheduleRestart(err, Math.min(delayMs * 2, 30_000), 'consumer could not start'));
      });
    }, delayMs);
  }

  /** The consumer group id (unprefixed) and whether this consumer has joined it since it (re)started. */
  get group(): { group: string; joined: boolean } {
    return { group: this.spec.groupId, joined: this.inGroup && !this.stopping };
  }

  /**
   * Starts the consumer as the service starts. When that fails (a topic whose partitions have no leader yet, a broker
   * still loading them after its restart, a topic not created yet), it keeps trying in the background as after a crash,
   * 1 s, 2 s, 4 s … up to 30 s apart, instead of failing the service's start: the pod stays up and is not ready (its
   * consumer has not joined its group, `/health/ready`) until it has. True when it started at the first try.
   */
  async startOrRetry(): Promise<boolean> {
    try {
      await this.start();
      return true;
    } catch (err) {
      if (!this.stopping) this.scheduleRestart(err as Error, 1_000, 'consumer could not start');
      return false;
    }
  }

  async start(): Promise<void> {
    const topics = [...new Set(this.spec.on.map((route) => this.namer.name(route.definition.topic)))];
    await this.consumer.connect();
    await this.consumer.subscribe({ topics, fromBeginning: this.spec.fromBeginning ?? true });
    await this.consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.spec.partitionsConsumedConcurrently ?? PARTITIONS_AT_ONCE,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.processBatch(payload),
    });
    // stop() came while this start was on its way (a try in the background): what it disconnected may have connected since.
    if (this.stopping) await this.consumer.disconnect();
    else this.logger.log({ msg: 'consumer started', group: this.spec.groupId });
  }

  /** Waits for the messages in flight to finish (and commit), then leaves the group. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    // What is handled is committed now; a chunk still in flight commits its own position when it ends (stopping).
    await this.commitOffsets().catch((err: Error) =>
      this.logger.warn({ msg: 'offsets could not be committed at stop; those messages come again as copies', group: this.spec.groupId, err: err.message }));
    await this.consumer.disconnect();
    this.lag.clear();
  }

  /**
   * Messages of one partition in order. A fetched batch is handled in chunks, each chunk in ONE database
   * transaction (every message's effect and its event id), so a busy partition pays one commit per chunk
   * instead of one per message; the chunks of the other partitions that reached the consumer in the same fetch
   * share that transaction (`together`). The offset is committed to Kafka after the chunk's transaction, never
   * before, and at most once a second (`commitOffsetsEveryMs`) unless the chunk parked a message (a replay would
   * park it again) or the consumer is stopping. When a chunk fails, its messages are handled again one transaction
   * each, so a message that keeps failing stops its partition exactly where it is, and the ones before it are kept.
   */
  private async processBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, isRunning, isStale } = payload;
    const { topic, partition } = batch;
    const logical = this.namer.logical(topic);
    for (let from = 0; from < batch.messages.length; from += CHUNK_SIZE) {
      if (!isRunning() || isStale()) return;
      const part: Part = { topic, partition, messages: batch.messages.slice(from, from + CHUNK_SIZE) };
      // Before the chunk: a message that hangs in its handler still counts as lag.
      this.lag.set(logical, partition, batch.highWatermark, part.messages[0].offset);
      let parked: boolean;
      try {
        parked = (await this.together(part)) ?? await this.alone(part);
      } catch (err) {
        this.logger.warn({ msg: 'a chunk of messages failed; handling them one by one', topic: logical, partition, from: part.messages[0].offset, err });
        for (const message of part.messages) {
          if (!isRunning() || isStale()) return;
          await this.commitThrough(payload, message, (await this.processChunk([{ topic, partition, messages: [message] }], 'first'))[0]);
        }
        continue;
      }
      await this.commitThrough(payload, part.messages[part.messages.length - 1], parked);
    }
    await this.maybePurge();
    // Caught up: what arrives in the next moments waits for the next fetch, together, rather than one fetch each.
    if (this.spec.lingerMs && batch.messages.length > 0 && batch.offsetLag() === '0' && isRunning() && !this.stopping) {
      await new Promise((resolve) => setTimeout(resolve, this.spec.lingerMs));
    }
  }

  /**
   * The batch's partition is done up to `message`: its offset resolved, and committed to Kafka now when the chunk parked
   * a message or the consumer is stopping, else within `commitOffsetsEveryMs`.
   */
  private async commitThrough({ batch, resolveOffset, heartbeat }: EachBatchPayload, message: KafkaMessage, parked: boolean): Promise<void> {
    const { topic, partition } = batch;
    resolveOffset(message.offset);
    const next = (BigInt(message.offset) + 1n).toString();
    this.uncommitted.set(`${topic}:${partition}`, { topic, partition, offset: next });
    this.lag.set(this.namer.logical(topic), partition, batch.highWatermark, next);
    if (parked || this.stopping) await this.commitOffsets();
    else this.commitSoon();
    await heartbeat();
  }

  /**
   * Handles `part` in one transaction with the parts of other partitions that reach the consumer in the same turn of
   * the event loop (kafkajs hands a fetch's batches to its workers at once), so a fetch that brings a few messages on
   * each of several partitions costs one transaction, not one per partition, and the rows they share are locked by
   * one transaction instead of several waiting on each other. Resolves to whether it parked a message, or to
   * `undefined` when it is alone or the shared transaction failed: then each part is done on its own (`alone`), so
   * one partition's failing message holds up only its own partition.
   */
  private together(part: Part): Promise<boolean | undefined> {
    return new Promise((done) => {
      if (!this.gathering) {
        const gathered: Gathered[] = [];
        this.gathering = gathered;
        setImmediate(() => {
          this.gathering = undefined;
          void this.runTogether(gathered);
        });
      }
      this.gathering.push({ part, done });
    });
  }

  private async runTogether(gathered: readonly Gathered[]): Promise<void> {
    if (gathered.length === 1) return gathered[0].done(undefined);
    try {
      const parked = await this.processChunk(gathered.map((g) => g.part), 'at-commit');
      gathered.forEach((g, i) => g.done(parked[i]));
    } catch (err) {
      this.logger.debug({ msg: 'chunks of several partitions failed together; each is done on its own', parts: gathered.length, err: (err as Error).message });
      messagingMetrics.chunksSeparated.inc({ group: this.spec.groupId });
      gathered.forEach((g) => g.done(undefined));
    }
  }

  /**
   * One partition's chunk in its own transaction. It may have held a copy of an event handled before (its handler then
   * also meets what the first one wrote): the chunk is done again with the copies told apart before any handler runs.
   * A chunk that fails then too has a failure of its own.
   */
  private async alone(part: Part): Promise<boolean> {
    const [parked] = await this.processChunk([part], 'at-commit').catch((err: Error) => {
      this.logger.debug({ msg: 'a chunk is done again with its event ids recorded first', topic: this.namer.logical(part.topic), partition: part.partition, err: err.message });
      messagingMetrics.chunksRedone.inc({ topic: this.namer.logical(part.topic) });
      return this.processChunk([part], 'first');
    });
    return parked;
  }

  /** Commits the handled positions within `commitOffsetsEveryMs`: one timer, armed only while positions wait. */
  private commitSoon(): void {
    if (this.commitTimer) return;
    this.commitTimer = setTimeout(() => {
      this.commitTimer = undefined;
      // After a rebalance the group may refuse positions of partitions it moved: their messages come again, as copies.
      this.commitOffsets().catch((err: Error) =>
        this.logger.warn({ msg: 'offsets could not be committed; those messages come again as copies', group: this.spec.groupId, err: err.message }));
    }, this.spec.commitOffsetsEveryMs ?? COMMIT_OFFSETS_EVERY_MS);
  }

  /** Commits every handled position in one request. */
  private async commitOffsets(): Promise<void> {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    if (this.uncommitted.size === 0) return;
    const offsets = [...this.uncommitted.values()];
    this.uncommitted.clear();
    await this.consumer.commitOffsets(offsets);
  }

  /** Forgets event ids older than the retention: the table stays bounded by it, not by every event ever consumed. */
  private async maybePurge(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = Date.now();
    const retainSeconds = (this.spec.processedRetentionMs ?? PROCESSED_RETAIN_MS) / 1000;
    await this.dataSource.query(
      `DELETE FROM "${this.schema}".processed_events WHERE consumer = $1 AND processed_at < now() - make_interval(secs => $2)`,
      [this.spec.groupId, retainSeconds],
    ).catch((err: unknown) => this.logger.warn({ msg: 'processed events could not be purged', group: this.spec.groupId, err }));
  }

  /**
   * One transaction for the chunk: each message under its CONSUMER span (child of the producer's, from its
   * headers), its event id recorded, its handler run. Messages that break their contract are parked after
   * the commit (a rolled-back chunk parks nothing), and counted only then, like the others. Returns whether it
   * parked any.
   *
   * `record`: when the chunk's event ids are recorded. `at-commit` (the usual way): every event is taken as new and
   * its id goes into `processed_events` with the transaction's last statement (a deferred write, so it costs no
   * round trip of its own); if one was recorded before, that statement throws `SeenBefore` and the whole chunk rolls
   * back (as it does when a handler meets what a copy's first handling wrote), to be done again with `first`, which
   * records the ids before any handler runs and skips the copies. Copies are rare (a replay after a crash or a
   * rebalance, a row a relay sent twice), so most chunks save a statement; handlers only write in the transaction
   * (or after its commit), so a rolled-back first try leaves nothing behind.
   */
  private async processChunk(parts: readonly Part[], record: 'first' | 'at-commit'): Promise<boolean[]> {
    const chunk: Chunk = { parsed: [], handles: false, handledIds: [], record, fresh: new Set(), counted: [], invalid: [], forChunk: [] };
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index];
      const topic = this.namer.logical(part.topic) as TopicName;
      for (const message of part.messages) {
        const parsed = parseEnvelope(message.value, this.definitions);
        const route = parsed.ok ? this.routeTaking(parsed.envelope) : undefined;
        chunk.parsed.push({ index, part, topic, message, parsed, route });
        if (!parsed.ok || !route) continue;
        chunk.handles = true;
        if (!route.idempotent) chunk.handledIds.push(parsed.envelope.eventId);
      }
    }
    // A chunk of messages this consumer only skips or parks needs no transaction.
    await (chunk.handles ? this.dataSource.transaction((manager) => this.runChunk(chunk, manager)) : this.runChunk(chunk));
    for (const { part, message, reason } of chunk.invalid) {
      const { topic, partition } = parts[part];
      const logical = this.namer.logical(topic) as TopicName;
      await this.deadLetter(logical, partition, message, reason);
      messagingMetrics.consumed.inc({ topic: logical, type: 'invalid', result: 'dead_lettered' });
    }
    for (const { topic, ...c } of chunk.counted) messagingMetrics.consumed.inc({ topic, ...c });
    return parts.map((_, index) => chunk.invalid.some((i) => i.part === index));
  }

  /** The chunk's messages in `manager`'s transaction (none when it only skips or parks them), then its handler. */
  private async runChunk(chunk: Chunk, manager?: EntityManager): Promise<void> {
    // The chunk's event ids: recorded now in one statement, the ones recorded before being copies (no second effect),
    // or all taken as new and recorded at the commit.
    chunk.fresh = !manager ? new Set<string>()
      : chunk.record === 'first' ? await this.recordFresh(manager, chunk.handledIds) : this.recordAtCommit(manager, chunk.handledIds);
    for (const entry of chunk.parsed) {
      await withConsumerSpan(entry.part.topic, entry.part.partition, entry.message, this.consumeOne, this, chunk, entry, manager);
    }
    if (manager && chunk.forChunk.length > 0) await this.handleAll(manager, chunk.forChunk);
  }

  /**
   * One message of a chunk, under its CONSUMER span. A method, not a closure made per message: V8 keeps a function's
   * optimized code only while a closure of it lives, so closures made per call are compiled again after every full
   * collection (docs/performance.md, thirty-second round).
   */
  private async consumeOne(span: Span, chunk: Chunk, entry: ParsedMessage, manager?: EntityManager): Promise<void> {
    const { index, topic, message, parsed: result, route } = entry;
    if (!result.ok) {
      chunk.invalid.push({ part: index, message, reason: result.reason });
      span.setAttribute('owd.consume.result', 'dead_lettered');
    } else if (!manager || !route) {
      chunk.counted.push({ topic, type: result.envelope.type, result: 'ignored' });
      span.setAttributes({ ...eventAttributes(result.envelope), 'owd.consume.result': 'ignored' });
    } else {
      span.setAttributes(eventAttributes(result.envelope));
      // delete(): an id twice in one chunk has its effect once. An idempotent route's handler tells copies itself.
      const isFresh = route.idempotent === true || chunk.fresh.delete(result.envelope.eventId.toLowerCase());
      if (isFresh && this.spec.handleChunk) chunk.forChunk.push({ topic, event: { envelope: result.envelope, trace: captureTraceContext() } });
      else if (isFresh) await this.handleOne(topic, manager, result.envelope, route);
      chunk.counted.push({ topic, type: result.envelope.type, result: isFresh ? 'processed' : 'duplicate' });
      span.setAttribute('owd.consume.result', isFresh ? 'processed' : 'duplicate');
    }
  }

  /** The route of the event's type when it accepts the event; undefined when this consumer does not take it. */
  private routeTaking(envelope: EventEnvelope): EventRoute | undefined {
    const route = this.routes.get(`${envelope.type}@${envelope.schemaVersion}`);
    return route !== undefined && (route.accepts?.(envelope) ?? true) ? route : undefined;
  }

  /**
   * Takes every event id as new and records them with the transaction's last statement; that statement throws
   * `SeenBefore` (rolling the transaction back) when one was recorded before, by an earlier chunk or by a
   * transaction of another member that committed meanwhile.
   */
  private recordAtCommit(manager: EntityManager, eventIds: string[]): Set<string> {
    const ids = new Set(eventIds.map((id) => id.toLowerCase()));
    if (ids.size === 0) return ids;
    deferWrite(manager, {
      sql: `INSERT INTO "${this.schema}".processed_events (consumer, event_id)
            SELECT $1, id FROM unnest($2::uuid[]) AS id ON CONFLICT DO NOTHING RETURNING event_id::text AS event_id`,
      params: [this.spec.groupId, [...ids]],
      returned: (rows) => {
        if (rows.length < ids.size) throw new SeenBefore(ids.size - rows.length);
      },
    });
    return new Set(ids);
  }

  /** Records the event ids in the chunk's transaction; returns those not recorded before. */
  private async recordFresh(manager: EntityManager, eventIds: string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows: { event_id: string }[] = await manager.query(
      `INSERT INTO "${this.schema}".processed_events (consumer, event_id)
       SELECT $1, id FROM unnest($2::uuid[]) AS id ON CONFLICT DO NOTHING RETURNING event_id`,
      [this.spec.groupId, eventIds],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  private async handleOne(topic: TopicName, manager: EntityManager, envelope: EventEnvelope, route: EventRoute): Promise<void> {
    const stop = messagingMetrics.handlerSeconds.startTimer({ topic });
    await route.handle?.(envelope, manager);
    stop();
  }

  /** The handler time of a chunk is shared out over its events (by their topics), so the histogram stays per event. */
  private async handleAll(manager: EntityManager, events: readonly { topic: TopicName; event: ChunkEvent }[]): Promise<void> {
    const started = process.hrtime.bigint();
    await this.spec.handleChunk?.(events.map((e) => e.event), manager);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9 / events.length;
    for (const { topic } of events) messagingMetrics.handlerSeconds.observe({ topic }, seconds);
  }

  /** Parks the message as it came (key, value and headers, trace context included) with the reason. */
  private async deadLetter(topic: TopicName, partition: number, message: KafkaMessage, reason: string): Promise<void> {
    const { offset, key, value } = message;
    this.logger.warn({ msg: 'message parked in the dead-letter topic', topic, partition, offset, reason });
    await this.producer.sendMessages([{
      topic: this.namer.deadLetter(topic),
      key: key?.toString() ?? '',
      value: value ?? Buffer.alloc(0),
      headers: {
        ...textHeaders(message.headers),
        'dlq-reason': reason.slice(0, 2000),
        'dlq-source-topic': this.namer.name(topic),
        'dlq-source-partition': String(partition),
        'dlq-source-offset': offset,
        'dlq-consumer-group': this.spec.groupId,
      },
    }]);
  }
}
