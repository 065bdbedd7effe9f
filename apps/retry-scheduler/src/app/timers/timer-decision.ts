import { MAX_ATTEMPTS, type DeliveryAttemptedPayload } from '@owd/events';

/** A timer to store: attempt `attempt` of the delivery is due at `dueAt`. */
export interface TimerPlan {
  deliveryId: string;
  resultId: string;
  attempt: number;
  /** attemptedAt of the attempt that scheduled it: tells a manual-retry series apart from the first one. */
  afterAttemptedAt: Date;
  dueAt: Date;
}

export type TimerDecision =
  | { action: 'schedule'; timer: TimerPlan }
  | { action: 'stop'; reason: 'final' | 'last-attempt' | 'no-next-attempt' };

export interface DecisionOptions {
  jitterMs: number;
  /** A number in [0, 1); Math.random in production, fixed in tests. */
  random: () => number;
}

/**
 * What one delivery.attempted event means for the timers of its delivery. Either way every older
 * pending timer of the delivery is superseded; `schedule` also stores the next attempt's timer.
 */
export function decideTimer(event: DeliveryAttemptedPayload, options: DecisionOptions): TimerDecision {
  if (event.final) return { action: 'stop', reason: 'final' };
  // Guards against a non-final third attempt: there is never a fourth.
  if (event.attempt >= MAX_ATTEMPTS) return { action: 'stop', reason: 'last-attempt' };
  if (!event.nextAttemptAt) return { action: 'stop', reason: 'no-next-attempt' };
  const jitter = Math.floor(options.random() * (options.jitterMs + 1));
  return {
    action: 'schedule',
    timer: {
      deliveryId: event.deliveryId,
      resultId: event.resultId,
      attempt: event.attempt + 1,
      afterAttemptedAt: new Date(event.attemptedAt),
      // Jitter only ever delays: a retry never goes out before the time the dispatcher published.
      dueAt: new Date(new Date(event.nextAttemptAt).getTime() + jitter),
    },
  };
}
