import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CapabilityReported, ContractChanged, GoalChanged } from '@owd/events';
import { MessagingService, on } from '@owd/kafka';
import { ProjectionRepository } from './projection.repository';

export const PROJECTION_GROUP = 'notifier.projection';

/** Keeps the notifier's projection current; quick DB writes only, the weekly run does the slow part. */
@Injectable()
export class ProjectionConsumer implements OnModuleInit {
  constructor(private readonly messaging: MessagingService, private readonly repository: ProjectionRepository) {}

  onModuleInit(): void {
    this.messaging.consume({
      groupId: PROJECTION_GROUP,
      on: [
        on(ContractChanged, ({ payload }, manager) => this.repository.saveContract(manager, payload)),
        on(CapabilityReported, ({ payload }, manager) => this.repository.saveReport(manager, payload)),
        on(GoalChanged, ({ payload }, manager) => this.repository.saveGoal(manager, payload)),
      ],
    });
  }
}
