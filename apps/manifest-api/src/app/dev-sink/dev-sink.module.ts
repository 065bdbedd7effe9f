import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { GoalsModule } from '../goals/goals.module';
import { DevSinkController } from './dev-sink.controller';
import { DevSinkService } from './dev-sink.service';

/** Internal development sink: a receiver for Test mode that shows what would have been delivered. */
@Module({
  imports: [AccessModule, GoalsModule],
  controllers: [DevSinkController],
  providers: [DevSinkService],
})
export class DevSinkModule {}
