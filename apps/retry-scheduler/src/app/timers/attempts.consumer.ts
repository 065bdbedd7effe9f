import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DeliveryAttempted, type DeliveryAttemptedPayload, type EventEnvelope } from '@owd/events';
import { MessagingService, on } from '@owd/kafka';
import { Clock } from './clock.provider';
import { RetryPoller } from './retry.poller';
import { decideTimer } from './timer-decision';
import { TimerStore } from './timer.store';
import { timerMetrics } from './timer.metrics';
import { TIMER_SETTINGS, type TimerSettings } from './timer.settings';

export const ATTEMPTS_CONSUMER_GROUP = 'retry-scheduler.attempts';

/** Turns delivery.attempted events into stored, superseded or cancelled timers. Database work only. */
@Injectable()
export class AttemptsConsumer implements OnModuleInit {
  private readonly logger = new Logger(AttemptsConsumer.name);

  constructor(
    private readonly messaging: MessagingService,
    private readonly store: TimerStore,
    private readonly poller: RetryPoller,
    private readonly clock: Clock,
    @Inject(TIMER_SETTINGS) private readonly settings: TimerSettings,
  ) {}

  onModuleInit(): void {
    this.messaging.consume({
      groupId: ATTEMPTS_CONSUMER_GROUP,
      // A series that ends at its first attempt (most deliveries) never had a timer: nothing to store or cancel,
      // so such an event needs no transaction and no record. Timers exist only after a non-final attempt, and a new
      // series starts only after the last one ended.
      on: [on(DeliveryAttempted, (envelope, manager) => this.handle(envelope, manager), {
        accepts: ({ payload }) => !(payload.final && payload.attempt === 1),
      })],
      // A timer's due time counts from the attempt's end, not from when its event is read: a fetch held a moment
      // to fill costs no retry its schedule, and the topic (every attempt) far fewer fetches.
      fetchWaitMs: 250,
    });
  }

  async handle(envelope: EventEnvelope<DeliveryAttemptedPayload>, manager: EntityManager): Promise<void> {
    const event = envelope.payload;
    const decision = decideTimer(event, { jitterMs: this.settings.jitterMs, random: Math.random });
    const outcome = await this.store.record(manager, envelope, decision, this.clock.now());
    const context = { deliveryId: event.deliveryId, attempt: event.attempt, eventId: envelope.eventId };
    if (outcome.stale) {
      this.logger.warn({ msg: 'older attempt than one already seen; timers left as they are', ...context });
      return;
    }
    if (outcome.cancelled > 0) timerMetrics.cancelled.inc(outcome.cancelled);
    if (decision.action === 'stop') {
      if (decision.reason === 'no-next-attempt') {
        this.logger.warn({ msg: 'non-final attempt without nextAttemptAt; no retry scheduled', ...context });
      }
      return;
    }
    if (outcome.scheduled) {
      timerMetrics.scheduled.inc();
      this.poller.wakeBy(decision.timer.dueAt);
      this.logger.log({ msg: 'retry timer stored', ...context, nextAttempt: decision.timer.attempt, dueAt: decision.timer.dueAt.toISOString() });
    }
  }
}
