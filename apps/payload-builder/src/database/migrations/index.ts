import { contentWithoutPglz } from '@owd/database';
import { outboxRowsUncompressed, processedEventsRetention } from '@owd/kafka';
import { Init1763769600000 } from './1763769600000-init';
import { PayloadBuilderTables1763856000000 } from './1763856000000-payload-builder-tables';
import { FreezeRecordWithoutBody1795564800000 } from './1795564800000-freeze-record-without-body';
import { FieldValuesVersion1795651200000 } from './1795651200000-field-values-version';

/** Applied in this order by the migrate command (and on start when MIGRATE_ON_START is on). */
export const MIGRATIONS = [Init1763769600000, PayloadBuilderTables1763856000000, processedEventsRetention('payload_builder'), FreezeRecordWithoutBody1795564800000,
  FieldValuesVersion1795651200000, outboxRowsUncompressed('payload_builder'),
  contentWithoutPglz([{ table: 'payload_builder.results', column: 'content' }, { table: 'payload_builder.result_events', column: 'data' }])];
