import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { GoalsModule } from '../goals/goals.module';
import { RecoveriesController } from './recoveries.controller';
import { RecoveriesService } from './recoveries.service';

/** Seeing and recovering failed deliveries across goals. */
@Module({
  imports: [AccessModule, GoalsModule],
  controllers: [RecoveriesController],
  providers: [RecoveriesService],
})
export class RecoveriesModule {}
