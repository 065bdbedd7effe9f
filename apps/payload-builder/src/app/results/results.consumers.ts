import { Injectable } from '@nestjs/common';
import {
  ContractChanged, DeliveryAttempted, GoalChanged, ResultApproved, ResultFieldsSet, ResultRevised,
  type EventDefinition, type EventEnvelope,
} from '@owd/events';
import { MessagingService } from '@owd/kafka';
import { ConflictResendService } from './conflict-resend.service';
import { GoalChangeHandler } from './goal-change.handler';
import { ResultWorkflowService } from './result-workflow.service';

/** The envelope's payload as the class its definition validated it against. */
function is<T extends object>(envelope: EventEnvelope, definition: EventDefinition<T>): envelope is EventEnvelope<T> {
  return envelope.type === definition.type;
}

/** Registers the service's consumer groups before the application boots (one group per input stream). */
@Injectable()
export class ResultsConsumers {
  constructor(messaging: MessagingService, workflow: ResultWorkflowService, goals: GoalChangeHandler, conflicts: ConflictResendService) {
    messaging.consume({
      groupId: 'payload-builder.results',
      events: [ResultRevised, ResultApproved, ResultFieldsSet],
      handle: async (envelope, manager) => {
        if (is(envelope, ResultRevised)) await workflow.onRevised(manager, envelope);
        else if (is(envelope, ResultApproved)) await workflow.onApproved(manager, envelope);
        else if (is(envelope, ResultFieldsSet)) await workflow.onFieldsSet(manager, envelope);
      },
    });
    messaging.consume({
      groupId: 'payload-builder.goals',
      events: [GoalChanged, ContractChanged],
      handle: async (envelope, manager) => {
        if (is(envelope, GoalChanged)) await goals.onGoalChanged(manager, envelope);
        else if (is(envelope, ContractChanged)) await goals.onContractChanged(manager, envelope);
      },
    });
    messaging.consume({
      groupId: 'payload-builder.deliveries',
      events: [DeliveryAttempted],
      handle: async (envelope, manager) => {
        if (is(envelope, DeliveryAttempted)) await conflicts.onAttempted(manager, envelope);
      },
    });
  }
}
