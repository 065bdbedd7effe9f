import { outboxRowsUncompressed, processedEventsRetention } from '@owd/kafka';
import { Init1763769600000 } from './1763769600000-init';
import { RetryTimers1763856000000 } from './1763856000000-retry-timers';
import { TimerTraceContext1795305600000 } from './1795305600000-timer-trace-context';

/** Applied in this order by the migrate command (and on start when MIGRATE_ON_START is on). */
export const MIGRATIONS = [Init1763769600000, RetryTimers1763856000000, TimerTraceContext1795305600000, processedEventsRetention('retry_scheduler'), outboxRowsUncompressed('retry_scheduler')];
