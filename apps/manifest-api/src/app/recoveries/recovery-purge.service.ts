import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLOCK, type Clock } from '../util/clock';
import { RetentionPurge } from '../util/retention-purge';

/** How long a recovery (its row and items) can be read back: 30 days, then `GET /api/recoveries/{id}` is 404. */
export const RECOVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes recoveries older than 30 days, with their items (ON DELETE CASCADE). An item only keeps a failure from
 * being recovered twice while it is still `failed`, which a recovered delivery stops being in the recovery's own
 * transaction; after 30 days the rows only answer for the progress view.
 */
@Injectable()
export class RecoveryPurge extends RetentionPurge {
  constructor(dataSource: DataSource, @Inject(CLOCK) clock: Clock) {
    super(dataSource, clock, { name: 'manifest_api.recoveries', column: 'created_at', retainMs: RECOVERY_RETENTION_MS });
  }
}
