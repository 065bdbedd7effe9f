import { Injectable } from '@nestjs/common';
import { ContractChanged, DeliveryAttempted, GoalChanged, ResultApproved, ResultFieldsSet, ResultRevised } from '@owd/events';
import { MessagingService, on } from '@owd/kafka';
import { ConflictResendService } from './conflict-resend.service';
import { GoalChangeHandler } from './goal-change.handler';
import { ResultWorkflowService } from './result-workflow.service';

/** Registers the service's consumer groups before the application boots (one group per input stream). */
@Injectable()
export class ResultsConsumers {
  constructor(messaging: MessagingService, workflow: ResultWorkflowService, goals: GoalChangeHandler, conflicts: ConflictResendService) {
    messaging.consume({
      groupId: 'payload-builder.results',
      // A result.revised is recognised again by its revision (onRevised: the result's upstream revision, under its
      // lock): its event id is not recorded. Approvals and field values apply whatever they find, so theirs are.
      on: [on(ResultRevised, { idempotent: true }), on(ResultApproved), on(ResultFieldsSet)],
      handleChunk: (events, manager) => workflow.onChunk(manager, events),
    });
    messaging.consume({
      groupId: 'payload-builder.goals',
      on: [
        on(GoalChanged, (envelope, manager) => goals.onGoalChanged(manager, envelope)),
        on(ContractChanged, (envelope, manager) => goals.onContractChanged(manager, envelope)),
      ],
    });
    messaging.consume({
      groupId: 'payload-builder.deliveries',
      // Only a 409 changes a result here; the other outcomes need no transaction.
      on: [on(DeliveryAttempted, (envelope, manager) => conflicts.onAttempted(manager, envelope), {
        accepts: (envelope) => envelope.payload.outcome === 'conflict',
      })],
      // A 409's resend may wait a quarter of a second; the topic carries every attempt, so fetches are held to fill.
      fetchWaitMs: 250,
    });
  }
}
