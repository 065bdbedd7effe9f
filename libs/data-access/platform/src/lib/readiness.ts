import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { DATABASE_OPTIONS, pendingMigrations, type ServiceDatabaseOptions } from '@owd/database';
import { MessagingService } from '@owd/kafka';

/** The parts of readiness that are the service's own: the schema version it needs, and its consumer groups. */
@Injectable()
export class ReadinessIndicators {
  /** Once the database has every migration this build ships, it keeps them: not asked again. */
  private schemaCurrent = false;

  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly messaging: MessagingService,
    @Inject(DATABASE_OPTIONS) private readonly options: ServiceDatabaseOptions,
  ) {}

  /** Up when the database has applied the newest migration this build ships (the migration Job ran). */
  async schema(key = 'schema'): Promise<HealthIndicatorResult> {
    const check = this.indicator.check(key);
    const shipped = this.dataSource.migrations.length;
    if (this.schemaCurrent) return check.up({ migrations: shipped });
    try {
      const pending = await pendingMigrations(this.dataSource, this.options.schema);
      if (pending.length) return check.down({ message: 'waiting for the migration Job', pending });
      this.schemaCurrent = true;
      return check.up({ migrations: shipped });
    } catch (err) {
      return check.down({ message: (err as Error).message });
    }
  }

  /** Up when every consumer the service registered has joined its group (after start-up and after each restart). */
  consumers(key = 'consumers'): HealthIndicatorResult {
    const check = this.indicator.check(key);
    const groups = this.messaging.consumerGroups();
    const waiting = groups.filter((g) => !g.joined).map((g) => g.group);
    return waiting.length ? check.down({ message: 'consumer groups not joined', waiting }) : check.up({ groups: groups.length });
  }
}
