import type { Goal, ResultState } from './api-types';
import { formatDateTime } from './format';

/** `yours`: a step only the receiver's owner can do, which the console cannot check. */
export type StepStatus = 'done' | 'todo' | 'yours';

export interface RolloutStep {
  title: string;
  detail: string;
  status: StepStatus;
  /** The first step still to do: where the reader should look next. */
  next: boolean;
}

type GoalFacts = Pick<Goal, 'channel' | 'recipientUrl' | 'deliveryMode' | 'sendImmediately' | 'verification' | 'secret'>;

/** The recommended rollout order of spec §1, each step marked done from what the goal and its results show. */
export function rolloutSteps(goal: GoalFacts, results: readonly { state: { status: ResultState } }[], locale?: string): RolloutStep[] {
  const delivered = results.filter((r) => r.state.status === 'delivered').length;
  const steps: Omit<RolloutStep, 'next'>[] = [
    {
      title: 'Pick the HTTP address tile',
      status: goal.channel === 'http_address' ? 'done' : 'todo',
      detail: 'Results go to your receiver as a signed JSON POST.',
    },
    {
      title: 'Keep Test mode and use Send test',
      status: goal.verification.verified ? 'done' : 'todo',
      detail: goal.verification.verified
        ? `The saved URL answered a Send test with 2xx (${formatDateTime(goal.verification.verifiedAt, locale)}).`
        : 'Send a test to the saved URL; a 2xx answer verifies it.',
    },
    {
      title: 'Make the receiver idempotent',
      status: 'yours',
      detail: 'Your receiver’s part: the same Idempotency-Key (the result id) must update one post, never create a second.',
    },
    {
      title: 'Enter the real URL and the optional secret',
      status: goal.recipientUrl ? 'done' : 'todo',
      detail: !goal.recipientUrl ? 'No recipient URL saved yet.'
        : goal.secret.set ? 'URL and secret saved.' : 'URL saved; no secret (optional).',
    },
    {
      title: 'Switch to Production',
      status: goal.deliveryMode === 'production' ? 'done' : 'todo',
      detail: goal.deliveryMode === 'production' ? 'Approved results go to the recipient URL.' : 'The goal is in Test mode.',
    },
    {
      title: 'Dispatch one approved result and check it in the target application',
      status: delivered > 0 ? 'done' : 'todo',
      detail: delivered > 0 ? `${delivered} ${delivered === 1 ? 'result' : 'results'} delivered.` : 'No result delivered yet.',
    },
    {
      title: 'Only then use Send immediately',
      status: goal.sendImmediately ? 'done' : 'todo',
      detail: goal.sendImmediately ? 'Results are sent without waiting for approval.' : 'Results wait for approval.',
    },
  ];
  const next = steps.findIndex((s) => s.status === 'todo');
  return steps.map((s, i) => ({ ...s, next: i === next }));
}

/** "2 of 7 steps done": every listed step counts; the receiver's own steps are named, since the console cannot check them. */
export function rolloutProgress(steps: readonly RolloutStep[]): string {
  const done = steps.filter((s) => s.status === 'done').length;
  const yours = steps.filter((s) => s.status === 'yours').length;
  return `${done} of ${steps.length} steps done${yours ? ` · ${yours} ${yours === 1 ? 'is' : 'are'} your receiver’s part` : ''}`;
}
