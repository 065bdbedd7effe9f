import type { EventDefinition } from './envelope/event-definition';
import { CapabilityReported } from './capability-reported/capability-reported.event';
import { ContractChanged } from './contract-changed/contract-changed.event';
import { DeliveryAttempted } from './delivery-attempted/delivery-attempted.event';
import { DeliveryRequested } from './delivery-requested/delivery-requested.event';
import { DeliveryRetryDue } from './delivery-retry-due/delivery-retry-due.event';
import { GoalChanged } from './goal-changed/goal-changed.event';
import { ResultRevised } from './result-revised/result-revised.event';
import { ResultStatusChanged } from './result-status/result-status.event';
import { DeliveryRetryRequested, ResultApproved, ResultFieldsSet } from './result-workflow/result-workflow.events';

/** Every event the system publishes; consumers validate against this list. */
export const ALL_EVENTS: readonly EventDefinition[] = [
  ResultRevised,
  ResultApproved,
  ResultFieldsSet,
  DeliveryRetryRequested,
  ResultStatusChanged,
  GoalChanged,
  ContractChanged,
  CapabilityReported,
  DeliveryRequested,
  DeliveryRetryDue,
  DeliveryAttempted,
] as EventDefinition[];
