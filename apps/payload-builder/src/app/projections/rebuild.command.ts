import { NestFactory } from '@nestjs/core';
import { ProjectionRebuildService, type RebuildSummary } from './projection-rebuild.service';
import { RebuildModule } from './rebuild.module';

export const REBUILD_COMMAND = 'rebuild-projections';

/** `node main.js rebuild-projections`: rebuilds the `results` projection from `result_events` and returns. */
export async function runProjectionRebuild(): Promise<RebuildSummary> {
  const app = await NestFactory.createApplicationContext(RebuildModule, { logger: ['log', 'warn', 'error'] });
  try {
    return await app.get(ProjectionRebuildService).rebuild();
  } finally {
    await app.close();
  }
}
