import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ResultsModule } from '../results/results.module';
import { ResultActionsController } from './result-actions.controller';
import { ResultActionsService } from './result-actions.service';
import { ResultStateProjector } from './result-state.projector';
import { RevisionLearner } from './revision-learner.service';

/** The delivery state of results (projected from events) and the actions of the result panel. */
@Module({
  imports: [AccessModule, ResultsModule],
  controllers: [ResultActionsController],
  providers: [ResultActionsService, ResultStateProjector, RevisionLearner],
})
export class DeliveryStateModule {}
