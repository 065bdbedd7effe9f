import { PublishMode } from '../payload.constants';

/** The goal settings that shape a payload. */
export interface GoalSettingsInput {
  /** Sent as `workflow_name`. */
  name: string;
  /** The "Second language version" switch. */
  secondLanguageEnabled: boolean;
  /** Language code of the second language; required when the switch is on. */
  secondLanguage: string | null;
  /** Publishing policy; null sends no `publish_mode`. */
  publishPolicy: PublishMode | null;
}
