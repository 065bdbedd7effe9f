import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventProducer } from './event-producer';
import { messagingMetrics } from './metrics';
import { WakeableSleep } from './wakeable-sleep';

const MEASURE_EVERY_MS = 5_000;
const LOCK_BUSY_RETRY_MS = 50;

interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  value: string;
  headers: Record<string, string>;
}

export interface OutboxRelayOptions {
  schema: string;
  batchSize?: number;
  /** Poll interval when idle (rows a crashed process left); writes in this process wake the relay at once. */
  idleMs?: number;
  /** How long published rows are kept (for inspection) before they are purged. */
  retainMs?: number;
}

/**
 * Publishes outbox rows in id order and marks them published only after the broker acknowledged.
 * A round holds an advisory lock per schema, so two replicas never publish the same service's rows
 * concurrently (order per key holds). A row whose transaction commits late (lower id, visible later)
 * is simply picked up by a later round.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private running = false;
  private loop?: Promise<void>;
  private readonly idle = new WakeableSleep();
  private lastPurge = 0;
  private lastMeasure = 0;
  /** Another replica held the lock in the last round: its batch may not include the rows this one was woken for. */
  private lockBusy = false;

  constructor(private readonly dataSource: DataSource, private readonly producer: EventProducer, private readonly options: OutboxRelayOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Finishes the round in flight (so nothing half-published is left) and stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
  }

  kick = (): void => this.idle.wake();

  private async run(): Promise<void> {
    const idleMs = this.options.idleMs ?? 1_000;
    while (this.running) {
      await this.maybeMeasureBacklog();
      let published = 0;
      try {
        published = await this.relayOnce();
        await this.maybePurge();
      } catch (err) {
        messagingMetrics.relayErrors.inc();
        this.logger.warn({ msg: 'outbox relay round failed; rows stay and are retried', err });
        await this.idle.sleep(1000);
        continue;
      }
      if (published === 0 && this.running) await this.idle.sleep(this.lockBusy ? LOCK_BUSY_RETRY_MS : idleMs);
      this.lockBusy = false;
    }
  }

  /**
   * One batch: returns how many rows were published. The advisory lock is a session lock on one connection,
   * held while the batch is read, sent and marked, and no transaction stays open across the Kafka send.
   * If the process dies mid-batch, the connection and the lock go with it, the rows stay unmarked and the
   * next holder sends them again (a copy consumers recognise by its event id).
   */
  async relayOnce(): Promise<number> {
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
        const rows: OutboxRow[] = await runner.query(
          `SELECT id, topic, message_key, value, headers FROM "${schema}".outbox WHERE published_at IS NULL ORDER BY id LIMIT $1`,
          [this.options.batchSize ?? 500],
        );
        if (rows.length === 0) return 0;
        await this.producer.sendMessages(rows.map((r) => ({ topic: r.topic, key: r.message_key, value: r.value, headers: r.headers })));
        await runner.query(`UPDATE "${schema}".outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
        for (const r of rows) messagingMetrics.outboxPublished.inc({ topic: r.topic });
        return rows.length;
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext($1))`, [lockKey]);
      }
    } finally {
      await runner.release();
    }
  }

  private async maybePurge(): Promise<void> {
    if (Date.now() - this.lastPurge < 10_000) return;
    this.lastPurge = Date.now();
    const { schema } = this.options;
    const retainSeconds = Math.floor((this.options.retainMs ?? 3_600_000) / 1000);
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
