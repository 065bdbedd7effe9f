import { ContentContractInput } from './content-contract.input';
import { EventContextInput } from './event-context.input';
import { GoalSettingsInput } from './goal-settings.input';
import { ReceiverFieldsInput } from './receiver-fields.input';
import { ResultRevisionInput } from './result-revision.input';

/** Everything `buildPayload` reads; plain JSON, so it can be carried in events as is. */
export interface BuildPayloadInput {
  revision: ResultRevisionInput;
  goal: GoalSettingsInput;
  contract: ContentContractInput | null;
  receiverFields: ReceiverFieldsInput;
  event: EventContextInput;
}
