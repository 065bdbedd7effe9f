import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  CapabilityReported, CapabilityReportedPayload, ContractChanged, ContractChangedPayload, GoalChanged, GoalChangedPayload,
  type EventEnvelope,
} from '@owd/events';
import { MessagingService } from '@owd/kafka';
import type { EntityManager } from 'typeorm';
import { ProjectionRepository } from './projection.repository';

export const PROJECTION_GROUP = 'notifier.projection';

/** Keeps the notifier's projection current; quick DB writes only, the weekly run does the slow part. */
@Injectable()
export class ProjectionConsumer implements OnModuleInit {
  constructor(private readonly messaging: MessagingService, private readonly repository: ProjectionRepository) {}

  onModuleInit(): void {
    this.messaging.consume({
      groupId: PROJECTION_GROUP,
      events: [ContractChanged, CapabilityReported, GoalChanged],
      handle: (envelope, manager) => this.handle(envelope, manager),
    });
  }

  private async handle({ payload }: EventEnvelope, manager: EntityManager): Promise<void> {
    // Consumed payloads are instances of their validated class, so the class tells the event apart.
    if (payload instanceof ContractChangedPayload) await this.repository.saveContract(manager, payload);
    else if (payload instanceof CapabilityReportedPayload) await this.repository.saveReport(manager, payload);
    else if (payload instanceof GoalChangedPayload) await this.repository.saveGoal(manager, payload);
  }
}
