import { processedEventsRetention } from '@owd/kafka';
import { Init1763769600000 } from './1763769600000-init';
import { ProjectionAndNotices1764201600000 } from './1764201600000-projection-and-notices';

/** Applied in this order by the migrate command (and on start when MIGRATE_ON_START is on). */
export const MIGRATIONS = [Init1763769600000, ProjectionAndNotices1764201600000, processedEventsRetention('notifier')];
