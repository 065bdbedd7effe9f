import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventProducer } from './event-producer';
import { messagingMetrics } from './metrics';
import { WakeableSleep } from './wakeable-sleep';

const MEASURE_EVERY_MS = 5_000;

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
  /** Poll interval when idle; writes in this process wake the relay at once. */
  idleMs?: number;
  /** How long published rows are kept (for inspection) before they are purged. */
  retainMs?: number;
}

/**
 * Publishes outbox rows in id order and marks them published only after the broker acknowledged.
 * Rows are claimed with FOR UPDATE SKIP LOCKED inside a transaction that also holds an advisory lock
 * per schema, so two replicas never publish the same service's rows concurrently (order per key holds).
 * A row whose transaction commits late (lower id, visible later) is simply picked up by a later round.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private running = false;
  private loop?: Promise<void>;
  private readonly idle = new WakeableSleep();
  private lastPurge = 0;
  private lastMeasure = 0;

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
    const idleMs = this.options.idleMs ?? 200;
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
      if (published === 0 && this.running) await this.idle.sleep(idleMs);
    }
  }

  /** One claimed batch: returns how many rows were published. */
  async relayOnce(): Promise<number> {
    const { schema } = this.options;
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [`${schema}.outbox`]);
      if (!locked) return 0;
      const rows: OutboxRow[] = await manager.query(
        `SELECT id, topic, message_key, value, headers FROM "${schema}".outbox
          WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize ?? 500],
      );
      if (rows.length === 0) return 0;
      await this.producer.sendMessages(rows.map((r) => ({ topic: r.topic, key: r.message_key, value: r.value, headers: r.headers })));
      await manager.query(`UPDATE "${schema}".outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      for (const r of rows) messagingMetrics.outboxPublished.inc({ topic: r.topic });
      return rows.length;
    });
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
