import type { PublishMode, ReceiverField } from '@owd/payload';

/** What this service keeps of a goal's settings (no URL, no secret: the dispatcher owns those). */
export interface GoalSnapshot {
  goalId: string;
  version: number;
  deleted: boolean;
  name: string;
  sendImmediately: boolean;
  secondLanguageEnabled: boolean;
  secondLanguage: string | null;
  publishPolicy: PublishMode | null;
  fieldDefaults: Record<string, unknown>;
}

/** A goal's content contract: what the receiver renders and the fields it asks for. */
export interface ContractSnapshot {
  goalId: string;
  version: number;
  origin: 'receiver' | 'manual';
  sectionTypes: string[];
  blockTypes: string[];
  fields: ReceiverField[];
}
