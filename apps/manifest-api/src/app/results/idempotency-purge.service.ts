import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLOCK, type Clock } from '../util/clock';
import { RetentionPurge } from '../util/retention-purge';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency';

/** Idempotency keys answer for 24 h; this removes expired ones every hour so the table holds about a day of intake. */
@Injectable()
export class IdempotencyPurge extends RetentionPurge {
  constructor(dataSource: DataSource, @Inject(CLOCK) clock: Clock) {
    super(dataSource, clock, { name: 'manifest_api.idempotency_keys', column: 'created_at', retainMs: IDEMPOTENCY_WINDOW_MS });
  }
}
