import type { GoalEntity } from './goal.entity';

/** The goal without its verification, and so without Send immediately, which is chosen only after verification (§1). */
export function unverified(goal: GoalEntity): GoalEntity {
  return { ...goal, verifiedUrl: null, verifiedAt: null, sendImmediately: false };
}
