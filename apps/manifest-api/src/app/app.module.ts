import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { ENTITIES } from '../database/entities';
import { MIGRATIONS } from '../database/migrations';
import { SERVICE_SCHEMA } from '../database/schema';
import { API_MODULES } from './api-modules';
import { ManifestApiConfig } from './manifest-api.config';
import { ResultsModule } from './results/results.module';

export { SERVICE_SCHEMA };

@Module({
  imports: [
    PlatformModule.forService({
      service: 'manifest-api',
      config: ManifestApiConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: ENTITIES },
    }),
    // First among the feature modules, so its routes are the first the router tries after the probes: the results
    // handed over (POST /api/goals/:goalId/results) are most of the API's requests, and each route before theirs was a
    // match tried and missed on every one of them (docs/performance.md, fortieth round). Paths do not overlap, so the
    // order changes nothing else; the OpenAPI document keeps API_MODULES' order.
    ResultsModule,
    ...API_MODULES,
  ],
})
export class AppModule {}
