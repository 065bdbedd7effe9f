import { Module } from '@nestjs/common';
import { ProjectionConsumer } from './projection.consumer';
import { ProjectionRepository } from './projection.repository';

/** Goals, contracts and capability reports as the notifier needs them, fed from Kafka. */
@Module({
  providers: [ProjectionRepository, ProjectionConsumer],
  exports: [ProjectionRepository],
})
export class ProjectionModule {}
