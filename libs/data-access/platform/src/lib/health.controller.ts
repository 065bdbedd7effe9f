import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator, type HealthIndicatorFunction } from '@nestjs/terminus';
import { KafkaHealthIndicator } from '@owd/kafka';
import { ReadinessIndicators } from './readiness';

/**
 * The probes' decorator options: no cache, and no Swagger documentation (the probes are in no OpenAPI document). To
 * document them, terminus would require `@nestjs/swagger`: ~100 modules and ~2 MiB of heap in every service.
 */
export const PROBE: NonNullable<Parameters<typeof HealthCheck>[0]> = { noCache: true, swaggerDocumentation: false };

/**
 * The probes (docs/operations.md "Health and probes"):
 * - `/health/live`: the process answers, so its event loop turns; no dependency is asked, so an outage of
 *   PostgreSQL or Kafka never restarts pods.
 * - `/health/ready` and `/health/startup`: the service can do its job now: database, Kafka, the schema
 *   version it needs, every consumer joined to its group.
 * - `/health`: the two dependencies only, as it always answered (scripts and tests wait on it).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly kafka: KafkaHealthIndicator,
    private readonly readiness: ReadinessIndicators,
  ) {}

  private readonly dependencies: HealthIndicatorFunction[] = [
    () => this.db.pingCheck('database', { timeout: 3000 }),
    () => this.kafka.isHealthy('kafka'),
  ];

  private readonly ready: HealthIndicatorFunction[] = [
    ...this.dependencies,
    () => this.readiness.schema(),
    () => this.readiness.consumers(),
  ];

  @Get()
  @HealthCheck(PROBE)
  check() {
    return this.health.check(this.dependencies);
  }

  @Get('live')
  @HealthCheck(PROBE)
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck(PROBE)
  readyCheck() {
    return this.health.check(this.ready);
  }

  @Get('startup')
  @HealthCheck(PROBE)
  startup() {
    return this.health.check(this.ready);
  }
}
