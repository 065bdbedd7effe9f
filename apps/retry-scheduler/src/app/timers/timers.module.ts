import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AttemptsConsumer } from './attempts.consumer';
import { Clock, SystemClock } from './clock.provider';
import { RetryPoller } from './retry.poller';
import { TimerStore } from './timer.store';
import { TIMER_SETTINGS, timerSettingsFrom } from './timer.settings';

/** Durable retry timers: stored from delivery.attempted, fired as delivery.retry-due. */
@Module({
  providers: [
    { provide: Clock, useClass: SystemClock },
    { provide: TIMER_SETTINGS, inject: [ConfigService], useFactory: timerSettingsFrom },
    TimerStore,
    RetryPoller,
    AttemptsConsumer,
  ],
})
export class TimersModule {}
