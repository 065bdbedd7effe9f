import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { BaseServiceConfig, envInt } from '@owd/platform';


/** retry-scheduler settings (docs/retry-scheduler.md lists every variable). */
export class RetrySchedulerConfig extends BaseServiceConfig {
  override PORT = 3003;

  /** Longest pause between two polls for due timers; a sooner due time wakes the poller earlier. */
  @Transform(envInt) @IsInt() @Min(10) @Max(60_000)
  RETRY_POLL_MS = 1000;

  /** Up to this many ms are added at random to each due time, so a burst of failures does not retry in lockstep. */
  @Transform(envInt) @IsInt() @Min(0) @Max(60_000)
  RETRY_JITTER_MS = 0;

  /** Timers claimed and fired in one transaction. */
  @Transform(envInt) @IsInt() @Min(1) @Max(1000)
  RETRY_BATCH_SIZE = 100;

  /** How long fired and cancelled timers (and per-delivery progress) are kept before they are purged. */
  @Transform(envInt) @IsInt() @Min(60_000)
  RETRY_RETAIN_MS = 7 * 24 * 3_600_000;
}
