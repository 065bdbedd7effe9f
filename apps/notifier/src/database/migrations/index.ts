import { outboxRowsUncompressed, processedEventsRetention } from '@owd/kafka';
import { Init1763769600000 } from './1763769600000-init';
import { ProjectionAndNotices1764201600000 } from './1764201600000-projection-and-notices';
import { ReportedRequiredFields1795392000000 } from './1795392000000-reported-required-fields';
import { CapabilitiesPerSource1795564800000 } from './1795564800000-capabilities-per-source';
import { NoticeSkips1795564860000 } from './1795564860000-notice-skips';

/** Applied in this order by the migrate command (and on start when MIGRATE_ON_START is on). */
export const MIGRATIONS = [
  Init1763769600000, ProjectionAndNotices1764201600000, ReportedRequiredFields1795392000000, processedEventsRetention('notifier'),
  CapabilitiesPerSource1795564800000, NoticeSkips1795564860000,
  outboxRowsUncompressed('notifier'),
];
