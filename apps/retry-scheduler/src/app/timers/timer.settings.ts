import { ConfigService } from '@nestjs/config';

/** The scheduler's tunables, read once from the validated configuration. */
export interface TimerSettings {
  pollMs: number;
  jitterMs: number;
  batchSize: number;
  retainMs: number;
}

export const TIMER_SETTINGS = Symbol('TIMER_SETTINGS');

export function timerSettingsFrom(config: ConfigService): TimerSettings {
  return {
    pollMs: config.getOrThrow<number>('RETRY_POLL_MS'),
    jitterMs: config.getOrThrow<number>('RETRY_JITTER_MS'),
    batchSize: config.getOrThrow<number>('RETRY_BATCH_SIZE'),
    retainMs: config.getOrThrow<number>('RETRY_RETAIN_MS'),
  };
}
