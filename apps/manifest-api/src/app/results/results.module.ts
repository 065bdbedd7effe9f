import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { GoalsModule } from '../goals/goals.module';
import { CLOCK, systemClock } from '../util/clock';
import { IdempotencyPurge } from './idempotency-purge.service';
import { ResultStore } from './result-store.service';
import { ResultsController } from './results.controller';
import { ResultsService } from './results.service';

/** Result intake, content revisions and the result reads. */
@Module({
  imports: [AccessModule, GoalsModule],
  controllers: [ResultsController],
  providers: [ResultsService, ResultStore, IdempotencyPurge, { provide: CLOCK, useValue: systemClock }],
  exports: [ResultStore],
})
export class ResultsModule {}
