import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { GoalsModule } from '../goals/goals.module';
import { SendTestController } from './send-test.controller';
import { SendTestService } from './send-test.service';

/** Send test (§1): the user's deliberate check of a receiver, over the delivery route. */
@Module({
  imports: [AccessModule, GoalsModule],
  controllers: [SendTestController],
  providers: [SendTestService],
})
export class SendTestModule {}
