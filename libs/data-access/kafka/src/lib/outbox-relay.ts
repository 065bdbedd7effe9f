import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventProducer } from './event-producer';
import { messagingMetrics } from './metrics';
import type { CommittedRow } from './outbox-buffer';
import { WakeableSleep } from './wakeable-sleep';

const MEASURE_EVERY_MS = 5_000;
const LOCK_BUSY_RETRY_MS = 50;

export interface OutboxRelayOptions {
  schema: string;
  batchSize?: number;
  /** Poll interval when idle and reading the table; committed rows of this process wake the relay at once. */
  idleMs?: number;
  /**
   * How long published rows are kept (for inspection) before they are purged. 0 (the default): a row is deleted when
   * it is marked, so publishing costs no second version of the row (the event stays on Kafka); the purge then only
   * meets rows an earlier setting kept.
   */
  retainMs?: number;
  /** How often a relay publishing from memory looks in the table for rows no live process will publish (5 s). */
  sweepEveryMs?: number;
  /**
   * How old an unpublished row must be before a sweep takes it (10 s): a live process publishes its own rows within
   * milliseconds of their commit, so an older one was left by a process that died (or whose sends fail).
   */
  sweepAfterMs?: number;
  /**
   * How long rows sent from memory may wait to be marked published (250 ms): the rows sent meanwhile are marked by
   * one statement, not one per send. A process that dies before the mark leaves them to be sent again (copies).
   */
  markEveryMs?: number;
}

/**
 * Publishes the outbox, in order, and marks rows published only after the broker acknowledged (deletes them, or
 * stamps them for `retainMs` when published rows are kept for inspection). Two ways:
 *
 * - **From memory** (the usual way): the rows a transaction of this process wrote are handed over once it has
 *   committed (`publishCommitted`) and sent in commit order, and marked published together at most `markEveryMs`
 *   after they were sent: no lock, no read of any body, and one statement for every send of that while.
 * - **From the table**, in id order under an advisory lock per schema, so two replicas never publish the same
 *   rows concurrently: at start (what a process that died left, before anything new), after a failed send
 *   (until the table is drained, so order per key holds), and every few seconds for rows older than
 *   `sweepAfterMs` (a replica that died). A row whose transaction commits late (lower id, visible later)
 *   is simply picked up by a later round.
 *
 * A row sent twice (a process died between the send and the mark, or a sweep met a slow replica's row) is a copy
 * that consumers recognise by its event id.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private running = false;
  private loop?: Promise<void>;
  private readonly idle = new WakeableSleep();
  private lastPurge = 0;
  private lastMeasure = 0;
  private lastSweep = 0;
  /** Another replica held the lock in the last round: its batch may not include the rows this one was woken for. */
  private lockBusy = false;
  /** Rows this process committed, in commit order, waiting to be sent from memory. */
  private readonly committed: CommittedRow[] = [];
  /** Reading the table until it is drained; rows committed meanwhile are found there. */
  private fromTable = true;
  /** Ids of rows sent from memory and not marked published yet, and when the first of them was sent. */
  private readonly sent: string[] = [];
  private firstSentAt = 0;

  constructor(private readonly dataSource: DataSource, private readonly producer: EventProducer, private readonly options: OutboxRelayOptions) {}

  /** Where the relay takes rows from now: the table until it is drained, then memory. */
  get publishing(): 'memory' | 'table' {
    return this.fromTable ? 'table' : 'memory';
  }

  private get retainsPublished(): boolean {
    return (this.options.retainMs ?? 0) > 0;
  }

  /** Marks rows published: deletes them, or stamps `published_at` when published rows are kept for a while. */
  private get markSql(): string {
    const { schema } = this.options;
    return this.retainsPublished
      ? `UPDATE "${schema}".outbox SET published_at = now() WHERE id = ANY($1::bigint[])`
      : `DELETE FROM "${schema}".outbox WHERE id = ANY($1::bigint[])`;
  }

  private get sweepEveryMs(): number {
    return this.options.sweepEveryMs ?? 5_000;
  }

  /** When the rows sent from memory are to be marked; Infinity when none waits. */
  private get markDueAt(): number {
    return this.sent.length === 0 ? Infinity : this.firstSentAt + (this.options.markEveryMs ?? 250);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.fromTable = true;
    this.loop = this.run();
  }

  /** Finishes the round in flight, publishes what is committed in memory (or leaves it to the next start) and stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
    try {
      while (!this.fromTable && this.committed.length > 0) await this.publishFromMemory();
      await this.markSent();
    } catch (err) {
      this.logger.warn({ msg: 'outbox rows not published at stop; the next start publishes them', err: (err as Error).message });
    }
    this.committed.length = 0;
  }

  private kick(): void {
    this.idle.wake();
  }

  /** Takes the rows of a committed transaction (outbox-buffer.ts); a stopped relay leaves them to the table. */
  publishCommitted = (rows: CommittedRow[]): void => {
    if (!this.running) return;
    this.committed.push(...rows);
    this.kick();
  };

  private async run(): Promise<void> {
    const idleMs = this.options.idleMs ?? 1_000;
    while (this.running) {
      await this.maybeMeasureBacklog();
      let published = 0;
      try {
        published = await this.round();
        await this.maybePurge();
      } catch (err) {
        messagingMetrics.relayErrors.inc();
        this.logger.warn({ msg: 'outbox relay round failed; rows stay and are retried from the table', err });
        this.fromTable = true;
        await this.idle.sleep(1000);
        continue;
      }
      if (published === 0 && this.running) {
        const wait = this.lockBusy ? LOCK_BUSY_RETRY_MS : this.fromTable ? idleMs
          : Math.max(0, Math.min(this.lastSweep + this.sweepEveryMs, this.markDueAt) - Date.now());
        await this.idle.sleep(wait);
      }
      this.lockBusy = false;
    }
  }

  /** One round: from the table while it has to be drained, else from memory, else a sweep when one is due. */
  private async round(): Promise<number> {
    if (this.fromTable) {
      // What was sent is marked first, so the read below does not send it again.
      await this.markSent();
      // Rows committed before this point are visible to the read below: memory need not keep them.
      this.committed.length = 0;
      const published = await this.relayOnce();
      if (published === 0 && !this.lockBusy) {
        this.fromTable = false;
        this.lastSweep = Date.now();
      }
      return published;
    }
    if (Date.now() >= this.markDueAt) await this.markSent();
    if (this.committed.length > 0) return this.publishFromMemory();
    if (Date.now() - this.lastSweep < this.sweepEveryMs) return 0;
    // A sweep never meets this process's own rows: it takes rows older than sweepAfterMs, and these are marked sooner.
    this.lastSweep = Date.now();
    return this.relayOnce(this.options.sweepAfterMs ?? 10_000);
  }

  /**
   * Sends the oldest batch of committed rows held in memory; they are marked published with the others sent within
   * `markEveryMs` (`markSent`). A failed send leaves them to the table.
   */
  private async publishFromMemory(): Promise<number> {
    const rows = this.committed.slice(0, this.options.batchSize ?? 500);
    await this.producer.sendMessages(rows.map((r) => ({ topic: r.topic, key: r.key, value: r.value, headers: r.headers })));
    this.committed.splice(0, rows.length);
    if (this.sent.length === 0) this.firstSentAt = Date.now();
    for (const r of rows) this.sent.push(r.id);
    for (const r of rows) messagingMetrics.outboxPublished.inc({ topic: r.topic, via: 'memory' });
    return rows.length;
  }

  /**
   * Marks the rows sent from memory published, in one statement; if it fails they stay waiting for the next try. It
   * runs in the relay's loop (or at stop, after it), like the sends, so nothing is added to `sent` meanwhile.
   */
  private async markSent(): Promise<void> {
    if (this.sent.length === 0) return;
    await this.dataSource.query(this.markSql, [this.sent]);
    this.sent.length = 0;
  }

  /**
   * One batch from the table, in id order: returns how many rows were published. `olderThanMs`: only rows at
   * least that old (a sweep). The advisory lock is a session lock on one connection, held while the batch is
   * read, sent and marked, and no transaction stays open across the Kafka send. If the process dies mid-batch,
   * the connection and the lock go with it, the rows stay unmarked and the next holder sends them again.
   */
  async relayOnce(olderThanMs = 0): Promise<number> {
    const { schema } = this.options;
    const lockKey = `${schema}.outbox`;
    const runner = this.dataSource.createQueryRunner();
    try {
      const [{ locked }] = await runner.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [lockKey]);
      if (!locked) {
        this.lockBusy = true;
        return 0;
      }
      try {
        const rows: (CommittedRow & { message_key: string })[] = await runner.query(
          `SELECT id, topic, message_key, value, headers FROM "${schema}".outbox
            WHERE published_at IS NULL AND created_at <= now() - make_interval(secs => $2) ORDER BY id LIMIT $1`,
          [this.options.batchSize ?? 500, olderThanMs / 1000],
        );
        if (rows.length === 0) return 0;
        await this.producer.sendMessages(rows.map((r) => ({ topic: r.topic, key: r.message_key, value: r.value, headers: r.headers })));
        await runner.query(this.markSql, [rows.map((r) => r.id)]);
        for (const r of rows) messagingMetrics.outboxPublished.inc({ topic: r.topic, via: 'table' });
        return rows.length;
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext($1))`, [lockKey]);
      }
    } finally {
      await runner.release();
    }
  }

  /** Rows stamped published longer ago than `retainMs`; with 0, those an earlier setting kept (marks delete now). */
  private async maybePurge(): Promise<void> {
    if (Date.now() - this.lastPurge < 10_000) return;
    this.lastPurge = Date.now();
    const { schema } = this.options;
    const retainSeconds = Math.floor((this.options.retainMs ?? 0) / 1000);
    await this.dataSource.query(
      `DELETE FROM "${schema}".outbox WHERE published_at < now() - make_interval(secs => $1)`,
      [retainSeconds],
    );
  }

  /** Sets `owd_outbox_backlog` and `owd_outbox_oldest_age_seconds` from the table (every replica sees the same). */
  async measureBacklog(): Promise<void> {
    const [stats] = await this.dataSource.query(
      `SELECT count(*)::int AS backlog, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS oldest
         FROM "${this.options.schema}".outbox WHERE published_at IS NULL`,
    );
    messagingMetrics.outboxBacklog.set(stats.backlog);
    messagingMetrics.outboxOldestAge.set(stats.oldest);
  }

  /** Every few seconds whether rounds succeed or not: a broker outage is when the backlog matters. */
  private async maybeMeasureBacklog(): Promise<void> {
    if (Date.now() - this.lastMeasure < MEASURE_EVERY_MS) return;
    this.lastMeasure = Date.now();
    await this.measureBacklog().catch((err: Error) =>
      this.logger.warn({ msg: 'outbox backlog could not be measured', err }));
  }
}
