import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { GoalsModule } from '../goals/goals.module';
import { RecoveriesController } from './recoveries.controller';
import { CLOCK, systemClock } from '../util/clock';
import { RecoveriesService } from './recoveries.service';
import { RecoveryPurge } from './recovery-purge.service';

/** Seeing and recovering failed deliveries across goals. */
@Module({
  imports: [AccessModule, GoalsModule],
  controllers: [RecoveriesController],
  providers: [RecoveriesService, RecoveryPurge, { provide: CLOCK, useValue: systemClock }],
})
export class RecoveriesModule {}
