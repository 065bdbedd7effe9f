import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { GoalEntity } from '../goals/goal.entity';
import { problems } from '../http/problem';
import type { ManifestApiConfig } from '../manifest-api.config';
import { DevSinkRequestEntity } from './dev-sink-request.entity';

/** The newest requests kept per goal; the sink is for looking at a few test deliveries, not an archive. */
export const DEV_SINK_KEEP = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class DevSinkService {
  readonly enabled: boolean;

  constructor(private readonly dataSource: DataSource, config: ConfigService<ManifestApiConfig, true>) {
    this.enabled = config.get('DEV_SINK_ENABLED', { infer: true });
  }

  assertEnabled(): void {
    // Unavailable in hosted production (§1): it looks as if the route did not exist.
    if (!this.enabled) throw problems.notFound('The development sink');
  }

  async record(goalHeader: string | undefined, method: string, headers: Record<string, string>, body: Buffer): Promise<DevSinkRequestEntity> {
    this.assertEnabled();
    if (!goalHeader || !UUID.test(goalHeader)) throw problems.validation([{ field: 'X-SH-Goal', message: 'must be the id of a goal' }], 'The X-SH-Goal header is missing or not a goal id.');
    return this.dataSource.transaction(async (m) => {
      const goal = await m.getRepository(GoalEntity).findOneBy({ id: goalHeader.toLowerCase() });
      if (!goal || goal.deletedAt) throw problems.notFound('The goal');
      const saved = await m.getRepository(DevSinkRequestEntity).save({ goalId: goal.id, method, headers, body, receivedAt: new Date() });
      await m.query(
        `DELETE FROM manifest_api.dev_sink_requests WHERE goal_id = $1 AND id NOT IN
           (SELECT id FROM manifest_api.dev_sink_requests WHERE goal_id = $1 ORDER BY id DESC LIMIT ${DEV_SINK_KEEP})`,
        [goal.id],
      );
      return saved;
    });
  }

  list(goalId: string): Promise<DevSinkRequestEntity[]> {
    return this.dataSource.getRepository(DevSinkRequestEntity).find({ where: { goalId }, order: { id: 'DESC' } });
  }
}
