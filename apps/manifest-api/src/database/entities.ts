import { ApiTokenEntity } from '../app/access/api-token.entity';
import { WorkspaceEntity } from '../app/access/workspace.entity';
import { CapabilityEntity } from '../app/contracts/capability.entity';
import { ContractEntity } from '../app/contracts/contract.entity';
import { TargetReportEntity } from '../app/contracts/target-report.entity';
import { DevSinkRequestEntity } from '../app/dev-sink/dev-sink-request.entity';
import { GoalEntity } from '../app/goals/goal.entity';
import { DeliveryAttemptEntity } from '../app/results/delivery-attempt.entity';
import { ResultRevisionEntity } from '../app/results/result-revision.entity';
import { ResultEntity } from '../app/results/result.entity';

/** Every TypeORM entity of manifest-api (tables are created by the migrations, never synchronised). */
export const ENTITIES = [WorkspaceEntity, ApiTokenEntity, GoalEntity, ContractEntity, ResultEntity, ResultRevisionEntity, DeliveryAttemptEntity, TargetReportEntity, CapabilityEntity, DevSinkRequestEntity];
