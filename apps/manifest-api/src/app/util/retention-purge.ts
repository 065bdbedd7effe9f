import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Clock } from './clock';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * A table kept for a retention window: once an hour (and when asked), the rows whose `column` is older than
 * `retainMs` are deleted, so the table holds about one window of rows. A failed purge is logged and tried again an
 * hour later.
 */
export abstract class RetentionPurge implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(this.constructor.name);
  private timer?: NodeJS.Timeout;

  protected constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly table: { name: string; column: string; retainMs: number },
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.purge().catch((error: Error) =>
      this.logger.warn({ msg: 'purge failed; tried again in an hour', table: this.table.name, err: error.message })), PURGE_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes the rows older than the window; returns how many. */
  async purge(): Promise<number> {
    const { name, column, retainMs } = this.table;
    const [, count]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM ${name} WHERE ${column} <= $1`, [new Date(this.clock.now().getTime() - retainMs)],
    );
    return count;
  }
}
