import { isAsciiEmail, type GoalChangedPayload } from '@owd/events';
import type { GoalEntity } from './goal.entity';

/** The goal.changed payload: the full settings, the secret only in its sealed form. */
export function goalSnapshot(goal: GoalEntity): GoalChangedPayload {
  return {
    goalId: goal.id,
    workspaceId: goal.workspaceId,
    version: goal.version,
    deleted: goal.deletedAt !== null,
    name: goal.name,
    sourceLang: goal.sourceLang,
    recipientUrl: goal.recipientUrl,
    deliveryMode: goal.deliveryMode,
    secretCiphertext: goal.secretSealed,
    sendImmediately: goal.sendImmediately,
    secondLanguageEnabled: goal.secondLanguageEnabled,
    secondLanguage: goal.secondLanguage,
    publishPolicy: goal.publishPolicy,
    fieldDefaults: goal.fieldDefaults,
    // An address saved before intake refused internationalised ones would make every consumer park the snapshot.
    ownerEmail: goal.ownerEmail !== null && isAsciiEmail(goal.ownerEmail) ? goal.ownerEmail : null,
  };
}
