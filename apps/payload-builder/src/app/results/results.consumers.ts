import { Injectable } from '@nestjs/common';
import {
  ContractChanged, DeliveryAttempted, GoalChanged, ResultApproved, ResultFieldsSet, ResultRevised,
  is,
} from '@owd/events';
import { MessagingService } from '@owd/kafka';
import { ConflictResendService } from './conflict-resend.service';
import { GoalChangeHandler } from './goal-change.handler';
import { ResultWorkflowService } from './result-workflow.service';

/** Registers the service's consumer groups before the application boots (one group per input stream). */
@Injectable()
export class ResultsConsumers {
  constructor(messaging: MessagingService, workflow: ResultWorkflowService, goals: GoalChangeHandler, conflicts: ConflictResendService) {
    messaging.consume({
      groupId: 'payload-builder.results',
      events: [ResultRevised, ResultApproved, ResultFieldsSet],
      handleChunk: (events, manager) => workflow.onChunk(manager, events),
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
      // Only a 409 changes a result here; the other outcomes need no transaction.
      accepts: (envelope) => is(envelope, DeliveryAttempted) && envelope.payload.outcome === 'conflict',
      // A 409's resend may wait a quarter of a second; the topic carries every attempt, so fetches are held to fill.
      fetchWaitMs: 250,
      handle: async (envelope, manager) => {
        if (is(envelope, DeliveryAttempted)) await conflicts.onAttempted(manager, envelope);
      },
    });
  }
}
