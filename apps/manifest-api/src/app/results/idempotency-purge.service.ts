import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLOCK, type Clock } from '../util/clock';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/** Idempotency keys answer for 24 h; this removes expired ones every hour so the table holds about a day of intake. */
@Injectable()
export class IdempotencyPurge implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyPurge.name);
  private timer?: NodeJS.Timeout;

  constructor(private readonly dataSource: DataSource, @Inject(CLOCK) private readonly clock: Clock) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.purge().catch((error: Error) => this.logger.warn(`Purging idempotency keys failed: ${error.message}`)), PURGE_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes the keys older than the window; returns how many. */
  async purge(): Promise<number> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM manifest_api.idempotency_keys WHERE created_at <= $1`, [new Date(this.clock.now().getTime() - IDEMPOTENCY_WINDOW_MS)],
    );
    return count;
  }
}
