import { FieldValue } from '../types/payload.types';

export interface ReceiverFieldOption {
  value: string;
  label: string;
}

/** A field from the receiver's capability report (§2.4). */
export interface ReceiverField {
  key: string;
  label: string;
  type: 'enum' | 'text' | 'bool';
  required: boolean;
  multiple: boolean;
  options?: ReceiverFieldOption[];
}

export interface ReceiverFieldsInput {
  /** Fields from the latest receiver report; null when the receiver never reported fields. */
  reportedFields: ReceiverField[] | null;
  /** Goal defaults merged with the per-result values, keyed by field key. */
  values: Record<string, FieldValue>;
}
