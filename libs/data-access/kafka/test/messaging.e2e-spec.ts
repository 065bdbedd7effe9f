import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import type { ConfigService } from '@nestjs/config';
import { Kafka, logLevel, type Consumer, type ConsumerConfig } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { register } from 'prom-client';
import { afterCommit } from '@owd/database';
import { ALL_EVENTS, createEnvelope, DeliveryRetryDue, TOPIC_MAX_MESSAGE_BYTES, TOPICS, type DeliveryRetryDuePayload } from '@owd/events';
import { MAX_BODY_BYTES } from '@owd/payload';
import { ensureTopics, EventConsumer, EventProducer, MessagingService, on, Outbox, OutboxRelay, SEND_MAX_BYTES, toMessage, TopicNamer, type OutgoingMessage } from '../src';
import { consumedEvents, createTestDatabase, createTestTopics, freePort, REPO_ROOT, uniqueTopicPrefix, waitFor, type TestDatabase } from '@owd/testing';
import { createTestService, recordEffect, type TestService } from './support/messaging-fixture';

function retryDue(): DeliveryRetryDuePayload {
  return { deliveryId: randomUUID(), resultId: `res_${randomUUID()}`, attempt: 2, dueAt: new Date().toISOString() };
}

async function effects(service: TestService, group: string, deliveryId: string): Promise<number> {
  const [{ n }] = await service.dataSource.query(
    `SELECT count(*)::int AS n FROM svc_b.effects WHERE consumer = $1 AND delivery_id = $2`, [group, deliveryId]);
  return n;
}

async function gauge(name: string, labels: Record<string, string> = {}): Promise<{ series: number; sum: number }> {
  const values = ((await register.getSingleMetric(name)?.get())?.values ?? [])
    .filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want));
  return { series: values.length, sum: values.reduce((sum, v) => sum + v.value, 0) };
}

describe('event plumbing on a real broker and database', () => {
  let db: TestDatabase;
  let brokers: string[];
  let prefix: string;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ brokers, prefix } = await createTestTopics());
    a = await createTestService(db.url, 'svc_a', brokers, prefix);
    b = await createTestService(db.url, 'svc_b', brokers, prefix);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('delivers an event written through the outbox of one service to the consumer of another, and nothing for a rolled-back change', async () => {
    const group = 'svc_b.flow';
    await b.consumer(group, recordEffect('svc_b', group)).start();
    a.relay.start();
    const committed = retryDue();
    const rolledBack = retryDue();
    await a.dataSource.transaction((m) => a.outbox.add(m, DeliveryRetryDue, committed, { correlationId: committed.resultId }));
    await expect(
      a.dataSource.transaction(async (m) => {
        await a.outbox.add(m, DeliveryRetryDue, rolledBack, { correlationId: rolledBack.resultId });
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');

    await waitFor(async () => (await effects(b, group, committed.deliveryId)) === 1, { what: 'the committed event in service B' });
    await everyRowMarked();
    expect(await effects(b, group, rolledBack.deliveryId)).toBe(0);
    await a.relay.stop();
  });

  it('redelivers an event whose consumer died after its effect but before the offset commit, and keeps one effect', async () => {
    const group = `svc_b.crash.${randomUUID()}`;
    const event = retryDue();
    await a.dataSource.transaction((m) => a.outbox.add(m, DeliveryRetryDue, event, { correlationId: event.resultId }));
    await a.relay.relayOnce();

    const child = spawn(process.execPath, [
      resolve(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), '--tsconfig', resolve(REPO_ROOT, 'tsconfig.base.json'),
      resolve(__dirname, 'support/crashing-consumer.ts'), db.url, brokers.join(','), prefix, group, event.deliveryId,
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
      child.on('exit', (code, signal) => res({ code, signal })));
    // tsx runs the script in a child of its own and reports that child's SIGKILL as exit code 137.
    if (exit.signal !== 'SIGKILL' && exit.code !== 137) throw new Error(`consumer child exited with ${JSON.stringify(exit)}: ${stderr.slice(-800)}`);
    expect(await effects(b, group, event.deliveryId)).toBe(1);

    const duplicatesBefore = await consumedEvents({ result: 'duplicate' });
    await b.consumer(group, recordEffect('svc_b', group)).start();
    await waitFor(async () => (await consumedEvents({ result: 'duplicate' })) > duplicatesBefore, { what: 'the redelivered event', timeoutMs: 45_000 });
    expect(await effects(b, group, event.deliveryId)).toBe(1);
  });

  /** Six events of one result (one partition), published in one relay round so they arrive as one batch. */
  async function sixInOnePartition(): Promise<DeliveryRetryDuePayload[]> {
    const resultId = `res_${randomUUID()}`;
    const events = Array.from({ length: 6 }, () => ({ ...retryDue(), resultId }));
    await a.dataSource.transaction(async (m) => {
      for (const e of events) await a.outbox.add(m, DeliveryRetryDue, e, { correlationId: resultId });
    });
    await a.relay.relayOnce();
    return events;
  }

  /** Rows sent are marked published together, within the relay's mark interval: waits until no row of svc_a is left. */
  async function everyRowMarked(): Promise<void> {
    await waitFor(async () => {
      const [{ n }] = await a.dataSource.query(`SELECT count(*)::int AS n FROM svc_a.outbox WHERE published_at IS NULL`);
      return n === 0;
    }, { what: 'every row marked published' });
  }

  async function effectsOf(group: string, events: DeliveryRetryDuePayload[]): Promise<number[]> {
    return Promise.all(events.map((e) => effects(b, group, e.deliveryId)));
  }

  it('handles a batch in one transaction; when one message fails once, the chunk is done again and each effect is kept once', async () => {
    const group = `svc_b.chunk.${randomUUID()}`;
    const events = await sixInOnePartition();
    const calls = new Map<string, number>();
    let failed = false;
    const record = recordEffect('svc_b', group);
    await b.consumer(group, async (env, m) => {
      const { deliveryId } = env.payload as DeliveryRetryDuePayload;
      calls.set(deliveryId, (calls.get(deliveryId) ?? 0) + 1);
      await record(env, m);
      if (deliveryId === events[3].deliveryId && !failed) {
        failed = true;
        throw new Error('a passing database hiccup');
      }
    }).start();

    await waitFor(async () => (await effectsOf(group, events)).every((n) => n === 1), { what: 'every effect once', timeoutMs: 30_000 });
    // The first three ran in the failed chunk (rolled back) and again in the chunk done again: still one effect each.
    expect(events.slice(0, 3).map((e) => calls.get(e.deliveryId))).toEqual([2, 2, 2]);
    expect(calls.get(events[3].deliveryId)).toBe(2);
  });

  it('keeps the effects before a message that keeps failing, and goes no further in its partition', async () => {
    const group = `svc_b.stuck.${randomUUID()}`;
    const events = await sixInOnePartition();
    const record = recordEffect('svc_b', group);
    let failures = 0;
    const consumer = b.consumer(group, async (env, m) => {
      if ((env.payload as DeliveryRetryDuePayload).deliveryId === events[2].deliveryId) {
        failures += 1;
        throw new Error('a handler bug');
      }
      await record(env, m);
    });
    await consumer.start();

    await waitFor(async () => (await effectsOf(group, events)).slice(0, 2).every((n) => n === 1), { what: 'the two effects before the bad message', timeoutMs: 30_000 });
    const seen = failures;
    // Each pass fails in the chunk, in the chunk done again and alone; more failures mean kafkajs handed the partition over again.
    await waitFor(() => failures >= seen + 2, { what: 'the bad message retried', timeoutMs: 30_000 });
    expect(await effectsOf(group, events)).toEqual([1, 1, 0, 0, 0, 0]);
    await consumer.stop();
  });

  it('has one effect for copies of an event (in one chunk and in a later one), and forgets event ids past the retention', async () => {
    const redone = async () => (await register.getSingleMetric('owd_consumer_chunks_redone_total')?.get())?.values.reduce((s, v) => s + v.value, 0) ?? 0;
    const redoneBefore = await redone();
    const group = `svc_b.copies.${randomUUID()}`;
    const forgotten = randomUUID();
    await b.dataSource.query(`INSERT INTO svc_b.processed_events (consumer, event_id, processed_at) VALUES ($1, $2, now() - interval '25 hours')`, [group, forgotten]);
    const event = retryDue();
    const envelope = await a.producer.emit(DeliveryRetryDue, event, { correlationId: event.resultId });
    const copy = toMessage(new TopicNamer(prefix), DeliveryRetryDue, envelope);
    await a.producer.sendMessages([copy, copy]);
    const handled: string[] = [];
    const record = recordEffect('svc_b', group);
    await b.consumer(group, async (env, m) => {
      // The group reads the topic from its beginning: only this test's events count, once their effect committed (a
      // chunk is taken as new and rolled back at its commit when it held a copy, then done again without it).
      if (env.payload.deliveryId === event.deliveryId) afterCommit(m, () => handled.push(env.eventId));
      await record(env, m);
    }).start();
    // A later copy, then a new event of the same key (same partition): once it is handled, every copy was seen.
    await waitFor(() => handled.length === 1, { what: 'the first copy' });
    await a.producer.sendMessages([copy]);
    const last = await a.producer.emit(DeliveryRetryDue, event, { correlationId: event.resultId });
    await waitFor(() => handled.includes(last.eventId), { what: 'the event after the copies' });

    expect(handled).toEqual([envelope.eventId, last.eventId]);
    expect(await effectsOf(group, [event])).toEqual([2]);
    // The later copy came in a chunk of its own, which was taken as new, rolled back at its commit and done again.
    expect(await redone()).toBeGreaterThan(redoneBefore);
    await waitFor(async () => {
      const rows: { event_id: string }[] = await b.dataSource.query(`SELECT event_id FROM svc_b.processed_events WHERE consumer = $1`, [group]);
      return !rows.some((r) => r.event_id === forgotten);
    }, { what: 'the id past the retention purged' });
  });

  it('records no ids for an idempotent route: every copy reaches its handler, whose own key keeps one effect', async () => {
    const group = `svc_b.idempotent.${randomUUID()}`;
    const event = retryDue();
    const envelope = await a.producer.emit(DeliveryRetryDue, event, { correlationId: event.resultId });
    const copy = toMessage(new TopicNamer(prefix), DeliveryRetryDue, envelope);
    await a.producer.sendMessages([copy, copy]);
    const handled: string[] = [];
    await b.consumer(group, async (env, m) => {
      if (env.payload.deliveryId !== event.deliveryId) return;
      afterCommit(m, () => handled.push(env.eventId));
      // The handler's own key tells a copy: the effects row of this event id is written once.
      await m.query(`INSERT INTO svc_b.effects (consumer, event_id, delivery_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [group, env.eventId, env.payload.deliveryId]);
    }, undefined, { idempotent: true }).start();
    // A new event of the same key (same partition) after the copies: once it is handled, every copy was.
    const last = await a.producer.emit(DeliveryRetryDue, event, { correlationId: event.resultId });
    await waitFor(() => handled.includes(last.eventId), { what: 'the event after the copies' });

    expect(handled).toEqual([envelope.eventId, envelope.eventId, envelope.eventId, last.eventId]);
    expect(await effectsOf(group, [event])).toEqual([2]);
    const [{ n }] = await b.dataSource.query(`SELECT count(*)::int AS n FROM svc_b.processed_events WHERE consumer = $1`, [group]);
    expect(n).toBe(0);
  });

  it('hands a chunk handler the new events of a chunk at once, in partition order, without the copies, in the chunk\'s transaction', async () => {
    const group = `svc_b.chunks.${randomUUID()}`;
    const resultId = `res_${randomUUID()}`;
    const events = Array.from({ length: 5 }, () => ({ ...retryDue(), resultId }));
    const envelopes = [];
    for (const e of events) envelopes.push(await a.producer.emit(DeliveryRetryDue, e, { correlationId: resultId }));
    await a.producer.sendMessages([toMessage(new TopicNamer(prefix), DeliveryRetryDue, envelopes[1])]);
    const calls: string[][] = [];
    await b.chunkConsumer(group, async (chunk, m) => {
      const mine = chunk.filter((c) => (c.envelope.payload as DeliveryRetryDuePayload).resultId === resultId);
      if (mine.length > 0) calls.push(mine.map((c) => c.envelope.eventId));
      // The chunk's transaction: an effect written here commits with the event ids.
      expect(m.queryRunner?.isTransactionActive).toBe(true);
    }).start();

    await waitFor(() => calls.flat().length >= 5, { what: 'the five events' });
    expect(calls.flat()).toEqual(envelopes.map((e) => e.eventId));
    expect(calls).toHaveLength(1);
  });

  /** Two events on each of the topic's three partitions (placed there explicitly), sent before a consumer starts. */
  async function twoOnEachPartition(): Promise<{ event: DeliveryRetryDuePayload; eventId: string; partition: number }[]> {
    const sent = [0, 1, 2].flatMap((partition) => [retryDue(), retryDue()].map((event) => ({ event, partition })));
    const producer = a.kafka.producer();
    await producer.connect();
    try {
      const namer = new TopicNamer(prefix);
      return await Promise.all(sent.map(async ({ event, partition }) => {
        const envelope = createEnvelope(DeliveryRetryDue, event, { correlationId: event.resultId });
        const { topic, ...message } = toMessage(namer, DeliveryRetryDue, envelope);
        await producer.send({ topic, messages: [{ ...message, partition }] });
        return { event, eventId: envelope.eventId, partition };
      }));
    } finally {
      await producer.disconnect();
    }
  }

  it('handles the chunks of the partitions a fetch brings together in one transaction', async () => {
    const group = `svc_b.together.${randomUUID()}`;
    const sent = await twoOnEachPartition();
    const mine = new Set(sent.map((s) => s.eventId));
    const transactions = new Map<string, string>();
    await b.chunkConsumer(group, async (chunk, m) => {
      const [{ xid }] = await m.query(`SELECT txid_current()::text AS xid`);
      for (const c of chunk) if (mine.has(c.envelope.eventId)) transactions.set(c.envelope.eventId, xid);
    }).start();

    await waitFor(() => transactions.size === sent.length, { what: 'the six events' });
    // Three partitions, one transaction: their batches reached the consumer in the same fetch.
    expect(new Set(transactions.values()).size).toBe(1);
  });

  it('when partitions shared a transaction and one keeps failing, the others go on and only its partition waits', async () => {
    const separated = async () => (await register.getSingleMetric('owd_consumer_chunks_separated_total')?.get())?.values.reduce((s, v) => s + v.value, 0) ?? 0;
    const separatedBefore = await separated();
    const group = `svc_b.apart.${randomUUID()}`;
    const sent = await twoOnEachPartition();
    // The second event of partition 1 fails every time; the first of partition 1 comes before it and is kept.
    const bad = sent.filter((s) => s.partition === 1)[1].event.deliveryId;
    const record = recordEffect('svc_b', group);
    const consumer = b.consumer(group, async (env, m) => {
      if (env.payload.deliveryId === bad) throw new Error('a handler bug');
      await record(env, m);
    });
    await consumer.start();

    const want = sent.map((s) => (s.event.deliveryId === bad ? 0 : 1));
    await waitFor(async () => JSON.stringify(await effectsOf(group, sent.map((s) => s.event))) === JSON.stringify(want), { what: 'every effect but the bad one', timeoutMs: 30_000 });
    expect(await separated()).toBeGreaterThan(separatedBefore);
    await consumer.stop();
    expect(await effectsOf(group, sent.map((s) => s.event))).toEqual(want);
  });

  it('skips the events a consumer does not accept without a transaction or a record, and counts them as ignored', async () => {
    const group = `svc_b.accepts.${randomUUID()}`;
    const resultId = `res_${randomUUID()}`;
    const skipped = await a.producer.emit(DeliveryRetryDue, { ...retryDue(), resultId, attempt: 2 }, { correlationId: resultId });
    const wanted = await a.producer.emit(DeliveryRetryDue, { ...retryDue(), resultId, attempt: 3 }, { correlationId: resultId });
    const ignoredBefore = await consumedEvents({ result: 'ignored' });
    const handled: string[] = [];
    await b.consumer(group, async (env) => {
      if ((env.payload as DeliveryRetryDuePayload).resultId === resultId) handled.push(env.eventId);
    }, (env) => (env.payload as DeliveryRetryDuePayload).attempt === 3).start();

    await waitFor(() => handled.length === 1, { what: 'the accepted event' });
    expect(handled).toEqual([wanted.eventId]);
    // The handled event's id is written when its transaction commits, which is after the handler returned. Both
    // events have the same key, so the skipped one (first) was passed over before the accepted one's commit.
    const recorded = async (): Promise<string[]> => (await b.dataSource.query(
      `SELECT event_id FROM svc_b.processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])`, [group, [skipped.eventId, wanted.eventId]],
    ) as { event_id: string }[]).map((r) => r.event_id);
    await waitFor(async () => (await recorded()).includes(wanted.eventId), { what: 'the accepted event recorded at its commit' });
    expect(await recorded()).toEqual([wanted.eventId]);
    expect(await consumedEvents({ result: 'ignored' })).toBeGreaterThan(ignoredBefore);
  });

  it('publishes outbox rows whose transactions committed out of id order', async () => {
    const group = 'svc_b.order';
    await b.consumer(group, recordEffect('svc_b', group)).start();
    const early = retryDue();
    const late = retryDue();
    const slow = a.dataSource.createQueryRunner();
    await slow.connect();
    await slow.startTransaction();
    await a.outbox.add(slow.manager, DeliveryRetryDue, early, { correlationId: early.resultId });
    // A transaction's rows go in just before it commits; a savepoint's release does it here, so the early row takes
    // its (lower) id now and becomes visible only when the outer transaction commits, after the late one.
    await slow.startTransaction();
    await slow.commitTransaction();
    await a.dataSource.transaction((m) => a.outbox.add(m, DeliveryRetryDue, late, { correlationId: late.resultId }));

    const ids: { id: string; value: string }[] = await a.dataSource.query(`SELECT id, value FROM svc_a.outbox WHERE published_at IS NULL ORDER BY id`);
    expect(ids).toHaveLength(1);
    expect(await a.relay.relayOnce()).toBe(1);
    await slow.commitTransaction();
    await slow.release();
    expect(await a.relay.relayOnce()).toBe(1);

    await waitFor(async () => (await effects(b, group, early.deliveryId)) === 1 && (await effects(b, group, late.deliveryId)) === 1, { what: 'both events' });
  });

  it('writes the events of a transaction in one insert at its commit, and none of a rolled-back savepoint or transaction', async () => {
    const kept = [retryDue(), retryDue()];
    const dropped = retryDue();
    const runner = a.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    for (const e of kept) await a.outbox.add(runner.manager, DeliveryRetryDue, e, { correlationId: e.resultId });
    await runner.startTransaction();
    await a.outbox.add(runner.manager, DeliveryRetryDue, dropped, { correlationId: dropped.resultId });
    await runner.rollbackTransaction();
    const before = Number((await runner.query(`SELECT count(*) AS n FROM svc_a.outbox`))[0].n);
    await runner.commitTransaction();
    await runner.release();
    await expect(a.dataSource.transaction(async (m) => {
      await a.outbox.add(m, DeliveryRetryDue, dropped, { correlationId: dropped.resultId });
      throw new Error('state change failed');
    })).rejects.toThrow('state change failed');

    const rows: { key: string; tx: string }[] = await a.dataSource.query(
      `SELECT message_key AS key, xmin::text AS tx FROM svc_a.outbox WHERE message_key = ANY($1) ORDER BY id`,
      [[...kept, dropped].map((e) => e.resultId)]);
    expect(rows.map((r) => r.key)).toEqual(kept.map((e) => e.resultId));
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    // Nothing was in the table while the transaction ran: the rows went in with its commit.
    const after = Number((await a.dataSource.query(`SELECT count(*) AS n FROM svc_a.outbox`))[0].n);
    expect(after - before).toBe(2);
    expect(await a.relay.relayOnce()).toBe(2);
  });

  it('stores each event of a transaction as the exact text it publishes, multi-byte and astral characters included', async () => {
    const events = ['res_plain', 'res_é€ "quoted" \\ back\\slash', 'res_😀 𝄞 ✓', 'res_\u2028\u0001'].map((resultId) => ({ ...retryDue(), resultId }));
    const envelopes = await a.dataSource.transaction((m) =>
      a.outbox.addMany(m, DeliveryRetryDue, events.map((e) => ({ payload: e, context: { correlationId: e.resultId } }))));

    const rows: { value: string }[] = await a.dataSource.query(
      `SELECT value FROM svc_a.outbox WHERE message_key = ANY($1) ORDER BY id`, [events.map((e) => e.resultId)]);
    expect(rows.map((r) => r.value)).toEqual(envelopes.map((e) => JSON.stringify(e)));
    expect(await a.relay.relayOnce()).toBe(events.length);
  });

  it('holds no transaction open while a batch is on its way to Kafka, and a second relay of the schema waits for the first', async () => {
    const event = retryDue();
    await a.dataSource.transaction((m) => a.outbox.add(m, DeliveryRetryDue, event, { correlationId: event.resultId }));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let sending!: () => void;
    const sendStarted = new Promise<void>((r) => (sending = r));
    // The real producer, held at the gate: the broker acknowledges only once the test has looked at the database.
    const held = { sendMessages: async (messages: readonly OutgoingMessage[]) => {
      sending();
      await gate;
      await a.producer.sendMessages(messages);
    } } as unknown as EventProducer;
    const first = new OutboxRelay(a.dataSource, held, { schema: 'svc_a' });
    const second = new OutboxRelay(a.dataSource, a.producer, { schema: 'svc_a' });

    const round = first.relayOnce();
    try {
      await sendStarted;
      // The session holding the schema's lock (the first relay's) waits on Kafka outside any transaction.
      const holders: { state: string }[] = await a.dataSource.query(
        `SELECT a.state FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()`);
      expect(holders.map((h) => h.state)).toEqual(['idle']);
      expect(await second.relayOnce()).toBe(0);
    } finally {
      release();
    }
    expect(await round).toBe(1);
    await everyRowMarked();
  });

  it('reports the outbox backlog and the age of its oldest row, also for rows no relay round has touched', async () => {
    const events = [retryDue(), retryDue(), retryDue()];
    await a.dataSource.transaction(async (m) => {
      for (const e of events) await a.outbox.add(m, DeliveryRetryDue, e, { correlationId: e.resultId });
    });
    await a.dataSource.query(`UPDATE svc_a.outbox SET created_at = now() - interval '90 seconds'
      WHERE id = (SELECT min(id) FROM svc_a.outbox WHERE published_at IS NULL)`);

    await a.relay.measureBacklog();
    expect((await gauge('owd_outbox_backlog')).sum).toBe(3);
    expect((await gauge('owd_outbox_oldest_age_seconds')).sum).toBeGreaterThanOrEqual(90);

    expect(await a.relay.relayOnce()).toBe(3);
    await a.relay.measureBacklog();
    expect((await gauge('owd_outbox_backlog')).sum).toBe(0);
    expect((await gauge('owd_outbox_oldest_age_seconds')).sum).toBe(0);
  });

  it('reports the consumer lag of a partition, counting a message stuck in its handler, and drops it when the member leaves', async () => {
    const group = `svc_b.lag.${randomUUID()}`;
    const stuck = retryDue();
    let release!: () => void;
    const released = new Promise<void>((res) => (release = res));
    let entered = false;
    const record = recordEffect('svc_b', group);
    const consumer = b.consumer(group, async (env, m) => {
      if ((env.payload as { deliveryId: string }).deliveryId === stuck.deliveryId) {
        entered = true;
        await released;
      }
      await record(env, m);
    });
    await consumer.start();
    await b.producer.emit(DeliveryRetryDue, stuck, { correlationId: stuck.resultId });
    await waitFor(() => entered, { what: 'the handler to hold the message' });

    expect((await gauge('owd_consumer_lag', { group, topic: 'delivery.retry-due' })).sum).toBeGreaterThanOrEqual(1);

    release();
    await waitFor(async () => (await effects(b, group, stuck.deliveryId)) === 1, { what: 'the held message processed' });
    await waitFor(async () => (await gauge('owd_consumer_lag', { group })).sum === 0, { what: 'no lag left' });

    await consumer.stop();
    expect((await gauge('owd_consumer_lag', { group })).series).toBe(0);
  });

  it('parks a message that fails validation in the dead-letter topic and goes on with the partition', async () => {
    const group = 'svc_b.poison';
    await b.consumer(group, recordEffect('svc_b', group)).start();
    const good = retryDue();
    const topic = `${prefix}delivery.retry-due`;
    const dlqMessages: { reason: string; value: string }[] = [];
    const dlq = b.kafka.consumer({ groupId: `dlq-reader-${randomUUID()}` });
    await dlq.connect();
    await dlq.subscribe({ topics: [`${topic}.dlq`], fromBeginning: true });
    await dlq.run({ eachMessage: async ({ message }) => {
      dlqMessages.push({ reason: message.headers?.['dlq-reason']?.toString() ?? '', value: message.value?.toString() ?? '' });
    } });

    // Same key → same partition: the good event comes after the poison one.
    await b.producer.sendMessages([
      { topic, key: good.resultId, value: '{"not":"an envelope"}', headers: {} },
    ]);
    await b.producer.emit(DeliveryRetryDue, good, { correlationId: good.resultId });

    await waitFor(async () => (await effects(b, group, good.deliveryId)) === 1, { what: 'the good event after the poison one' });
    await waitFor(() => dlqMessages.find((m) => m.value === '{"not":"an envelope"}'), { what: 'the parked message' });
    expect(dlqMessages[0].reason).toMatch(/eventId/);
    await dlq.disconnect();
  });

  async function published(via: 'memory' | 'table'): Promise<number> {
    return (await gauge('owd_outbox_published_total', { via })).sum;
  }

  async function unpublished(deliveryIds: string[]): Promise<string[]> {
    const rows: { delivery_id: string }[] = await a.dataSource.query(
      `SELECT value::jsonb -> 'payload' ->> 'deliveryId' AS delivery_id FROM svc_a.outbox
        WHERE published_at IS NULL AND value::jsonb -> 'payload' ->> 'deliveryId' = ANY($1)`, [deliveryIds]);
    return rows.map((r) => r.delivery_id);
  }

  it('publishes a committed transaction\'s events from memory, without reading them back from the table', async () => {
    const group = `svc_b.memory.${randomUUID()}`;
    await b.consumer(group, recordEffect('svc_b', group)).start();
    const relay = new OutboxRelay(a.dataSource, a.producer, { schema: 'svc_a', idleMs: 50 });
    const outbox = new Outbox('svc_a', new TopicNamer(prefix), relay.publishCommitted);
    relay.start();
    try {
      // At start the relay drains the table (what a process that died left), then publishes from memory.
      await waitFor(() => relay.publishing === 'memory', { what: 'the relay to publish from memory' });
      const [fromMemory, fromTable] = [await published('memory'), await published('table')];
      const events = [retryDue(), retryDue(), retryDue()];
      await a.dataSource.transaction((m) => outbox.addMany(m, DeliveryRetryDue, events.map((e) => ({ payload: e, context: { correlationId: e.resultId } }))));

      await waitFor(async () => (await effectsOf(group, events)).every((n) => n === 1), { what: 'the three events in service B' });
      await waitFor(async () => (await unpublished(events.map((e) => e.deliveryId))).length === 0, { what: 'the rows marked published' });
      expect(await published('memory')).toBe(fromMemory + 3);
      expect(await published('table')).toBe(fromTable);
    } finally {
      await relay.stop();
    }
  });

  it('marks the rows it sent from memory published together once their interval is over, and what is left at stop', async () => {
    const group = `svc_b.marks.${randomUUID()}`;
    await b.consumer(group, recordEffect('svc_b', group)).start();
    const relay = new OutboxRelay(a.dataSource, a.producer, { schema: 'svc_a', idleMs: 50, markEveryMs: 60_000, sweepAfterMs: 600_000 });
    const outbox = new Outbox('svc_a', new TopicNamer(prefix), relay.publishCommitted);
    relay.start();
    const events = [retryDue(), retryDue(), retryDue()];
    try {
      await waitFor(() => relay.publishing === 'memory', { what: 'the relay to publish from memory' });
      // Three transactions, three sends: the rows wait for one mark.
      for (const e of events) await a.dataSource.transaction((m) => outbox.add(m, DeliveryRetryDue, e, { correlationId: e.resultId }));
      await waitFor(async () => (await effectsOf(group, events)).every((n) => n === 1), { what: 'the three events in service B' });
      expect((await unpublished(events.map((e) => e.deliveryId))).sort()).toEqual(events.map((e) => e.deliveryId).sort());
    } finally {
      await relay.stop();
    }
    expect(await unpublished(events.map((e) => e.deliveryId))).toEqual([]);
  });

  it.each([
    ['deletes the rows it published (retainMs 0, the default)', 0, { stamped: 0, rows: 0 }],
    ['keeps the rows it published, stamped, while retainMs says', 3_600_000, { stamped: 4, rows: 4 }],
  ])('%s, from memory and from the table alike', async (_name, retainMs, left) => {
    const relay = new OutboxRelay(a.dataSource, a.producer, { schema: 'svc_a', idleMs: 50, retainMs });
    const outbox = new Outbox('svc_a', new TopicNamer(prefix), relay.publishCommitted);
    const [viaMemory, viaTable] = [[retryDue(), retryDue()], [retryDue(), retryDue()]];
    const ids = [...viaMemory, ...viaTable].map((e) => e.deliveryId);
    relay.start();
    try {
      await waitFor(() => relay.publishing === 'memory', { what: 'the relay to publish from memory' });
      await a.dataSource.transaction((m) => outbox.addMany(m, DeliveryRetryDue, viaMemory.map((e) => ({ payload: e, context: { correlationId: e.resultId } }))));
      await waitFor(async () => (await unpublished(viaMemory.map((e) => e.deliveryId))).length === 0, { what: 'the rows sent from memory marked' });
    } finally {
      await relay.stop();
    }
    // Committed through an outbox whose relay does not run: only a read of the table finds them.
    await a.dataSource.transaction((m) => a.outbox.addMany(m, DeliveryRetryDue, viaTable.map((e) => ({ payload: e, context: { correlationId: e.resultId } }))));
    expect(await relay.relayOnce()).toBe(2);
    const [found] = await a.dataSource.query(
      `SELECT count(*) FILTER (WHERE published_at IS NOT NULL)::int AS stamped, count(*)::int AS rows FROM svc_a.outbox
        WHERE value::jsonb -> 'payload' ->> 'deliveryId' = ANY($1)`, [ids]);
    expect(found).toEqual(left);
  });

  it('purges the rows an earlier setting kept stamped once published rows are no longer kept', async () => {
    const kept = retryDue();
    await a.dataSource.transaction((m) => a.outbox.add(m, DeliveryRetryDue, kept, { correlationId: kept.resultId }));
    await a.dataSource.query(`UPDATE svc_a.outbox SET published_at = now() - interval '1 minute'
      WHERE value::jsonb -> 'payload' ->> 'deliveryId' = $1`, [kept.deliveryId]);
    const stamped = async () => Number((await a.dataSource.query(
      `SELECT count(*) AS n FROM svc_a.outbox WHERE value::jsonb -> 'payload' ->> 'deliveryId' = $1`, [kept.deliveryId]))[0].n);
    expect(await stamped()).toBe(1);
    const relay = new OutboxRelay(a.dataSource, a.producer, { schema: 'svc_a', idleMs: 50, retainMs: 0 });
    relay.start();
    try {
      await waitFor(async () => (await stamped()) === 0, { what: 'the stamped row purged' });
    } finally {
      await relay.stop();
    }
  });

  it('sweeps rows a dead process left once they are old enough, and leaves younger ones to the process that wrote them', async () => {
    const sweeper = new OutboxRelay(a.dataSource, a.producer, { schema: 'svc_a', idleMs: 50, sweepEveryMs: 50, sweepAfterMs: 60_000 });
    sweeper.start();
    try {
      await waitFor(() => sweeper.publishing === 'memory', { what: 'the sweeper to publish from memory' });
      // Written through an outbox whose relay is not running: committed, never handed to a relay's memory.
      const [left, young] = [retryDue(), retryDue()];
      await a.dataSource.transaction(async (m) => {
        await a.outbox.add(m, DeliveryRetryDue, left, { correlationId: left.resultId });
        await a.outbox.add(m, DeliveryRetryDue, young, { correlationId: young.resultId });
      });
      await a.dataSource.query(`UPDATE svc_a.outbox SET created_at = now() - interval '90 seconds'
        WHERE published_at IS NULL AND value::jsonb -> 'payload' ->> 'deliveryId' = $1`, [left.deliveryId]);

      await waitFor(async () => !(await unpublished([left.deliveryId])).includes(left.deliveryId), { what: 'the old row swept' });
      // The sweep that took the old row saw the young one too, and left it.
      expect(await unpublished([young.deliveryId])).toEqual([young.deliveryId]);
    } finally {
      await sweeper.stop();
    }
    expect(await a.relay.relayOnce()).toBe(1);
  });

  it('after a failed send publishes from the table in id order until it is drained, then from memory again', async () => {
    const group = `svc_b.fallback.${randomUUID()}`;
    const resultId = `res_${randomUUID()}`;
    const arrived: string[] = [];
    await b.consumer(group, async (env) => {
      const { deliveryId, resultId: of } = env.payload as DeliveryRetryDuePayload;
      if (of === resultId) arrived.push(deliveryId);
    }).start();
    let failNext = false;
    const flaky = { sendMessages: async (messages: readonly OutgoingMessage[]) => {
      if (failNext) {
        failNext = false;
        throw new Error('the broker is away');
      }
      await a.producer.sendMessages(messages);
    } } as unknown as EventProducer;
    const relay = new OutboxRelay(a.dataSource, flaky, { schema: 'svc_a', idleMs: 50 });
    const outbox = new Outbox('svc_a', new TopicNamer(prefix), relay.publishCommitted);
    const write = async (event: DeliveryRetryDuePayload): Promise<void> => {
      await a.dataSource.transaction((m) => outbox.add(m, DeliveryRetryDue, event, { correlationId: resultId }));
    };
    const events = Array.from({ length: 3 }, () => ({ ...retryDue(), resultId }));
    relay.start();
    try {
      await waitFor(() => relay.publishing === 'memory', { what: 'the relay to publish from memory' });
      const errorsBefore = (await gauge('owd_outbox_relay_errors_total')).sum;
      failNext = true;
      await write(events[0]);
      await waitFor(() => relay.publishing === 'table', { what: 'the failed send' });
      await write(events[1]);
      await waitFor(() => relay.publishing === 'memory', { what: 'the table drained' });
      await write(events[2]);

      await waitFor(() => arrived.length >= 3, { what: 'the three events in service B' });
      expect(arrived).toEqual(events.map((e) => e.deliveryId));
      expect((await gauge('owd_outbox_relay_errors_total')).sum).toBe(errorsBefore + 1);
      await waitFor(async () => (await unpublished(events.map((e) => e.deliveryId))).length === 0, { what: 'every row marked published' });
    } finally {
      await relay.stop();
    }
  });

  /** What `create` asked kafkajs for, consumer by consumer, beside what it returned. */
  function withConsumerConfigs<T>(create: () => T): { configs: ConsumerConfig[]; made: T } {
    const configs: ConsumerConfig[] = [];
    const make = b.kafka.consumer.bind(b.kafka);
    b.kafka.consumer = (config) => {
      configs.push(config);
      return make(config);
    };
    try {
      return { configs, made: create() };
    } finally {
      b.kafka.consumer = make;
    }
  }

  /** The first `count` values of `topic`, read from its beginning by a consumer of its own (with `config`). */
  async function readBack(topic: string, count: number, config: Partial<ConsumerConfig> = {}): Promise<string[]> {
    const read: string[] = [];
    const reader = a.kafka.consumer({ groupId: `read-back-${randomUUID()}`, ...config });
    await reader.connect();
    try {
      await reader.subscribe({ topic, fromBeginning: true });
      await reader.run({ eachMessage: async ({ message }) => void read.push(String(message.value)) });
      await waitFor(() => read.length >= count, { what: `${count} message(s) read back from ${topic}` });
    } finally {
      await reader.disconnect();
    }
    return read.slice(0, count);
  }

  it('sends more than a partition takes in one request (1 MiB) as several requests, every message arriving in order', async () => {
    const topic = `${prefix}send-split.${randomUUID()}`;
    const admin = a.kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }] });
    await admin.disconnect();
    // One key, so one partition: 400 messages of 6 KB, 2.4 MB, which the broker refuses as one record batch.
    const value = (i: number) => `${String(i).padStart(6, '0')}${'x'.repeat(6000)}`;
    const messages: OutgoingMessage[] = Array.from({ length: 400 }, (_, i) => ({ topic, key: 'one-goal', value: value(i), headers: { n: String(i) } }));
    const requests = await gauge('owd_kafka_requests_total', { api: 'Produce' });
    await a.producer.sendMessages(messages);
    const sentIn = (await gauge('owd_kafka_requests_total', { api: 'Produce' })).sum - requests.sum;
    expect(sentIn).toBeGreaterThanOrEqual(Math.ceil((400 * 6006) / SEND_MAX_BYTES));

    const read = await readBack(topic, 400);
    expect(read.map((v) => v.slice(0, 6))).toEqual(messages.map((m) => String(m.value).slice(0, 6)));
  });

  it('makes topics that take a message of up to TOPIC_MAX_MESSAGE_BYTES, which a consumer capped at 1 MiB per fetch still reads', async () => {
    const namer = new TopicNamer(uniqueTopicPrefix());
    const admin = a.kafka.admin();
    await admin.connect();
    try {
      expect(await ensureTopics(admin, namer, { partitions: 1, replicationFactor: 1, topics: [TOPICS.DELIVERY_REQUESTED] })).toHaveLength(2);
    } finally {
      await admin.disconnect();
    }
    const topic = namer.name(TOPICS.DELIVERY_REQUESTED);
    // A 2 MiB body in base64, as delivery.requested carries the largest one payload-builder sends.
    const value = `${randomUUID()}${'b'.repeat(Math.ceil((MAX_BODY_BYTES * 4) / 3))}`;
    expect(Buffer.byteLength(value)).toBeLessThan(TOPIC_MAX_MESSAGE_BYTES);
    await a.producer.sendMessages([{ topic, key: 'res_large', value, headers: {} }]);

    expect(await readBack(topic, 1, { maxBytes: 1024 * 1024 })).toEqual([value]);
  });

  it('caps what one fetch brings at 1 MiB, so a consumer far behind holds that much of its backlog at a time, not 10 MiB', () => {
    const { configs } = withConsumerConfigs(() => [
      b.consumer(`svc_b.capped.${randomUUID()}`, recordEffect('svc_b', 'capped')),
      b.consumer(`svc_b.capped-held.${randomUUID()}`, recordEffect('svc_b', 'capped'), undefined, { fetchWaitMs: 300 }),
    ]);
    for (const config of configs) expect(config.maxBytes).toBe(1024 * 1024);
    // The per-partition limit stays kafkajs's (1 MiB): any one partition may still fill a fetch.
    expect(configs.map((c) => c.maxBytesPerPartition)).toEqual([undefined, undefined]);
  });

  it('lets the broker hold the fetches of a consumer off the latency path to fill them, and still handles what comes', async () => {
    const group = `svc_b.held.${randomUUID()}`;
    const { configs, made: held } = withConsumerConfigs(() => {
      const consumer = b.consumer(group, recordEffect('svc_b', group), undefined, { fetchWaitMs: 300 });
      b.consumer(`svc_b.prompt.${randomUUID()}`, recordEffect('svc_b', group));
      return consumer;
    });
    expect(configs[0]).toMatchObject({ minBytes: 64 * 1024, maxWaitTimeInMs: 300 });
    expect(configs[1].minBytes).toBeUndefined();

    await held.start();
    const event = retryDue();
    await b.producer.emit(DeliveryRetryDue, event, { correlationId: event.resultId });
    await waitFor(async () => (await effects(b, group, event.deliveryId)) === 1, { what: 'the event handled by the held consumer' });
    await held.stop();
  });

  it('waits after a batch that caught up, so what arrives meanwhile comes in one transaction; idle, it stays in the long poll', async () => {
    const created: Consumer[] = [];
    const make = b.kafka.consumer.bind(b.kafka);
    b.kafka.consumer = (config) => {
      const made = make(config);
      created.push(made);
      return made;
    };
    const group = `svc_b.linger.${randomUUID()}`;
    let lingering: ReturnType<TestService['consumer']>;
    try {
      lingering = b.consumer(group, recordEffect('svc_b', group), undefined, { lingerMs: 1_000 });
    } finally {
      b.kafka.consumer = make;
    }
    let fetches = 0;
    created[0].on(created[0].events.FETCH, () => { fetches += 1; });
    await lingering.start();
    // The consumer's first fetches bring the topic's history from the earlier tests; wait until it has caught up.
    const first = retryDue();
    await b.producer.emit(DeliveryRetryDue, first, { correlationId: first.resultId });
    await waitFor(async () => (await effects(b, group, first.deliveryId)) === 1, { what: 'the first event handled' });

    // Sent while it waits after the batch that brought the first one: both come with its next fetch.
    const [second, third] = [retryDue(), retryDue()];
    await b.producer.emit(DeliveryRetryDue, second, { correlationId: second.resultId });
    await b.producer.emit(DeliveryRetryDue, third, { correlationId: third.resultId });
    await waitFor(async () => (await effects(b, group, third.deliveryId)) === 1, { what: 'the later events handled' });
    const tx: { delivery_id: string; tx: string }[] = await b.dataSource.query(
      `SELECT delivery_id, xmin::text AS tx FROM svc_b.effects WHERE consumer = $1 AND delivery_id = ANY($2::uuid[])`,
      [group, [first.deliveryId, second.deliveryId, third.deliveryId]]);
    const txOf = (id: string) => tx.find((r) => r.delivery_id === id)?.tx;
    expect(txOf(second.deliveryId)).toBe(txOf(third.deliveryId));
    expect(txOf(first.deliveryId)).not.toBe(txOf(second.deliveryId));

    // Idle: after its wait it fetches once and the broker holds that fetch (a long poll), not one fetch after another.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const before = fetches;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(fetches - before).toBeLessThanOrEqual(1);
    await lingering.stop();
  });

  it('keeps trying to start a consumer whose topics are not there yet, without failing the start, and handles their events once they are', async () => {
    // Another prefix, whose topics are made only after the consumer first tried: as a pod that starts while its broker
    // still has no leader for a partition. Its client gives up at the first error, so that try fails at once.
    const later = uniqueTopicPrefix();
    const quick = new Kafka({ brokers, clientId: 'svc_b', logLevel: logLevel.NOTHING, retry: { retries: 0 } });
    const group = `svc_b.later.${randomUUID()}`;
    const consumer = new EventConsumer(quick, b.dataSource, b.producer, new TopicNamer(later), 'svc_b',
      { groupId: group, on: [on(DeliveryRetryDue, recordEffect('svc_b', group))], sessionTimeoutMs: 6_000 }, ALL_EVENTS);
    const producer = new EventProducer(b.kafka, new TopicNamer(later));
    try {
      expect(await consumer.startOrRetry()).toBe(false);
      expect(consumer.group.joined).toBe(false);
      expect((await gauge('owd_consumer_restarts_total', { group })).sum).toBe(1);

      await createTestTopics(3, later);
      await producer.connect();
      const event = retryDue();
      await producer.emit(DeliveryRetryDue, event, { correlationId: event.resultId });
      await waitFor(async () => (await effects(b, group, event.deliveryId)) === 1, { timeoutMs: 60_000, what: 'the event handled once the topics are there' });
      expect(consumer.group.joined).toBe(true);
    } finally {
      await consumer.stop();
      await producer.disconnect();
    }
  });

  it('starts a service with its broker away: the start does not fail, and the producer and consumers connect once it answers', async () => {
    // The broker's address is a port nothing listens on yet; later a proxy there forwards to the real broker (which
    // then names itself in its metadata). The client tries twice (the least an idempotent producer takes), so a try fails at once.
    const port = await freePort();
    const [brokerHost, brokerPort] = brokers[0].split(':');
    const away = new Kafka({ brokers: [`127.0.0.1:${port}`], clientId: 'svc_away', logLevel: logLevel.NOTHING, retry: { retries: 1, initialRetryTime: 50, maxRetryTime: 100 } });
    const c = await createTestService(db.url, 'svc_away', brokers, prefix);
    const namer = new TopicNamer(prefix);
    const producer = new EventProducer(away, namer);
    const relay = new OutboxRelay(c.dataSource, producer, { schema: 'svc_away', idleMs: 50 });
    const config = { get: () => undefined } as unknown as ConfigService;
    const messaging = new MessagingService(away, { service: 'svc_away', schema: 'svc_away' }, c.dataSource, producer, relay, namer, config);
    const group = `svc_away.${randomUUID()}`;
    messaging.consume({ groupId: group, on: [on(DeliveryRetryDue, recordEffect('svc_away', group))], sessionTimeoutMs: 6_000 });
    const proxy = createServer((socket) => {
      const upstream = connect(Number(brokerPort), brokerHost);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    try {
      await messaging.onApplicationBootstrap();
      expect(messaging.consumerGroups()).toEqual([{ group, joined: false }]);
      await expect(producer.connect()).rejects.toThrow();

      await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
      // Written through this service's outbox: its relay has to connect the producer to publish it.
      const outbox = new Outbox('svc_away', namer, relay.publishCommitted);
      const event = retryDue();
      await c.dataSource.transaction((m) => outbox.add(m, DeliveryRetryDue, event, { correlationId: event.resultId }));
      await waitFor(async () => {
        const [{ n }] = await c.dataSource.query(`SELECT count(*)::int AS n FROM svc_away.effects WHERE consumer = $1 AND delivery_id = $2`, [group, event.deliveryId]);
        return n === 1;
      }, { timeoutMs: 60_000, what: 'the event published and handled once the broker answers' });
      expect(messaging.consumerGroups()).toEqual([{ group, joined: true }]);
    } finally {
      await messaging.beforeApplicationShutdown();
      await c.close();
      proxy.close();
    }
  });

  it('commits consumed positions to Kafka at most once per interval and when it stops, and at once after parking a message', async () => {
    // Topics of its own: no history of the other tests (whose parked messages would be committed at once).
    const fresh = await createTestTopics();
    const c = await createTestService(db.url, 'svc_b', fresh.brokers, fresh.prefix);
    const group = `svc_b.offsets.${randomUUID()}`;
    const topic = `${fresh.prefix}delivery.retry-due`;
    const admin = c.kafka.admin();
    await admin.connect();
    // A fresh topic's partitions may answer "not the leader" for a moment after they were created (seen in CI): a read
    // is asked again until the broker answers it, and what it answers is then checked.
    const positions = (read: () => Promise<{ partition: number; offset: string }[]>): Promise<Record<number, string>> =>
      waitFor(async () => Object.fromEntries((await read()).map((p) => [p.partition, p.offset])), { what: 'positions read from the broker' });
    const committed = () => positions(async () => (await admin.fetchOffsets({ groupId: new TopicNamer(fresh.prefix).group(group), topics: [topic] }))[0].partitions);
    // Partitions nothing was written to have nothing to commit.
    const ends = async () => Object.fromEntries(Object.entries(await positions(() => admin.fetchTopicOffsets(topic))).filter(([, end]) => end !== '0'));
    const committedOf = async (partitions: Record<number, string>) =>
      Object.fromEntries(Object.entries(await committed()).filter(([p]) => p in partitions));
    try {
      const resultId = `res_${randomUUID()}`;
      const events = Array.from({ length: 6 }, () => ({ ...retryDue(), resultId }));
      for (const e of events) await c.producer.emit(DeliveryRetryDue, e, { correlationId: resultId });
      const written = await ends();
      const record = recordEffect('svc_b', group);
      // An interval longer than the test: the positions are committed only when the consumer stops.
      const consumer = c.consumer(group, record, undefined, { commitOffsetsEveryMs: 600_000 });
      await consumer.start();
      await waitFor(async () => (await effectsOf(group, events)).every((n) => n === 1), { what: 'the six events handled' });
      expect(Object.values(await committed()).every((offset) => offset === '-1')).toBe(true);
      await consumer.stop();
      expect(await committedOf(written)).toEqual(written);

      // A parked message is committed at once: a replay would park it again.
      const again = c.consumer(group, record, undefined, { commitOffsetsEveryMs: 600_000 });
      await again.start();
      await c.producer.sendMessages([{ topic, key: resultId, value: '{"not":"an envelope"}', headers: {} }]);
      const withPoison = await ends();
      await waitFor(async () => JSON.stringify(await committedOf(withPoison)) === JSON.stringify(withPoison), { what: 'the parked message\'s position committed' });
      await again.stop();
    } finally {
      await admin.disconnect();
      await c.close();
    }
  });
});
