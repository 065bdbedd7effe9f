import type { ReceiverField } from '@owd/payload';
import { fieldValueErrors } from '../contracts/field-values';
import type { FieldError } from '../http/problem';
import type { GoalEntity } from './goal.entity';

type GoalSettings = Pick<GoalEntity, 'secondLanguageEnabled' | 'secondLanguage' | 'deliveryMode' | 'recipientUrl' | 'fieldDefaults'>;

/**
 * Rules across settings that a DTO cannot express (422). Field defaults are checked only when they are being
 * saved, so a later contract change does not block unrelated edits.
 */
export function goalRuleErrors(goal: GoalSettings, contractFields: readonly ReceiverField[] | null, checkDefaults: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (goal.secondLanguageEnabled && !goal.secondLanguage) {
    errors.push({ field: 'secondLanguage', message: 'is required when secondLanguageEnabled is true' });
  }
  if (goal.deliveryMode === 'production' && !goal.recipientUrl) {
    errors.push({ field: 'recipientUrl', message: 'is required for production delivery' });
  }
  if (checkDefaults && contractFields !== null) errors.push(...fieldValueErrors(goal.fieldDefaults, contractFields, 'fieldDefaults'));
  return errors;
}
