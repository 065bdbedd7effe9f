import { Module } from '@nestjs/common';
import { GoalsModule } from '../goals/goals.module';
import { ConflictResendService } from './conflict-resend.service';
import { GoalChangeHandler } from './goal-change.handler';
import { PayloadFreezer } from './payload-freezer.service';
import { ResultEvaluator } from './result-evaluator.service';
import { ResultStatusPublisher } from './result-status.publisher';
import { ResultStore } from './result-store.service';
import { ResultWorkflowService } from './result-workflow.service';
import { ResultsConsumers } from './results.consumers';

/** The result lifecycle: readiness, freezing, 409 re-sends, and the consumers that drive them. */
@Module({
  imports: [GoalsModule],
  providers: [
    ResultStore, ResultStatusPublisher, PayloadFreezer, ResultEvaluator, ResultWorkflowService, ConflictResendService,
    GoalChangeHandler, ResultsConsumers,
  ],
  exports: [ResultStore],
})
export class ResultsModule {}
