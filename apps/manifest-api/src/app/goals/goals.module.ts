import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { systemResolverProvider } from './address-resolver';
import { GoalSecretService } from './goal-secret.service';
import { GoalStore } from './goal-store.service';
import { GoalsController } from './goals.controller';
import { GoalsService } from './goals.service';
import { TargetPolicyService } from './target-policy.service';

/** Goals and their HTTP address channel settings (§1), secret and address restriction. */
@Module({
  imports: [AccessModule],
  controllers: [GoalsController],
  providers: [GoalsService, GoalSecretService, GoalStore, TargetPolicyService, systemResolverProvider],
  exports: [GoalsService, GoalStore, TargetPolicyService, GoalSecretService],
})
export class GoalsModule {}
