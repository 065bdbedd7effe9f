import { Module } from '@nestjs/common';
import { GoalProjectionService } from './goal-projection.service';

/** This service's projection of goals and their content contracts (from `goal.changed`, `contract.changed`). */
@Module({ providers: [GoalProjectionService], exports: [GoalProjectionService] })
export class GoalsModule {}
