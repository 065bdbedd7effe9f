import { contentWithoutPglz } from '@owd/database';
import { outboxRowsUncompressed, processedEventsRetention } from '@owd/kafka';
import { Init1763769600000 } from './1763769600000-init';
import { Access1763856000000 } from './1763856000000-access';
import { Goals1763856000001 } from './1763856000001-goals';
import { Results1763856000002 } from './1763856000002-results';
import { Capabilities1763856000003 } from './1763856000003-capabilities';
import { DevSink1763856000004 } from './1763856000004-dev-sink';
import { RevisionNumbering1764000014000 } from './1764000014000-revision-numbering';
import { AttemptEndedAt1795392000000 } from './1795392000000-attempt-ended-at';
import { IdempotencyKeys1795478400000 } from './1795478400000-idempotency-keys';
import { WorkspaceDeletedAt1795478400001 } from './1795478400001-workspace-deleted-at';
import { AttemptResponse1795392005000 } from './1795392005000-attempt-response';
import { Recoveries1795392005001 } from './1795392005001-recoveries';
import { FieldValuesVersion1795651200000 } from './1795651200000-field-values-version';
import { FailedResults1795824000000 } from './1795824000000-failed-results';
import { IdempotentBatches1796086800000 } from './1796086800000-idempotent-batches';

/** Applied in this order by the migrate command (and on start when MIGRATE_ON_START is on). */
export const MIGRATIONS = [Init1763769600000, Access1763856000000, Goals1763856000001, Results1763856000002, Capabilities1763856000003, DevSink1763856000004,
  RevisionNumbering1764000014000,
  AttemptEndedAt1795392000000,
  IdempotencyKeys1795478400000,
  WorkspaceDeletedAt1795478400001,
  AttemptResponse1795392005000, Recoveries1795392005001,
  processedEventsRetention('manifest_api'),
  FieldValuesVersion1795651200000,
  FailedResults1795824000000,
  outboxRowsUncompressed('manifest_api'),
  contentWithoutPglz([{ table: 'manifest_api.results', column: 'content' }, { table: 'manifest_api.result_revisions', column: 'content' }]),
  IdempotentBatches1796086800000,
];
