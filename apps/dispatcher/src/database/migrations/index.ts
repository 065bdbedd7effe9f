import { outboxRowsUncompressed, processedEventsRetention } from '@owd/kafka';
import { Init1763769600000 } from './1763769600000-init';
import { DeliveryTables1763856000000 } from './1763856000000-delivery-tables';
import { AttemptTraceContext1795305600000 } from './1795305600000-attempt-trace-context';
import { DeliveryGoalVersion1795651200000 } from './1795651200000-delivery-goal-version';
import { GoalWorkspace1795737600000 } from './1795737600000-goal-workspace';
import { DeliveriesFillfactor1795824000000 } from './1795824000000-deliveries-fillfactor';

/** Applied in this order by the migrate command (and on start when MIGRATE_ON_START is on). */
export const MIGRATIONS = [Init1763769600000, DeliveryTables1763856000000, AttemptTraceContext1795305600000, processedEventsRetention('dispatcher'), DeliveryGoalVersion1795651200000,
  GoalWorkspace1795737600000, DeliveriesFillfactor1795824000000,
  outboxRowsUncompressed('dispatcher'),
];
