import { AccessModule } from './access/access.module';
import { ContractsModule } from './contracts/contracts.module';
import { DeliveryStateModule } from './delivery-state/delivery-state.module';
import { DevSinkModule } from './dev-sink/dev-sink.module';
import { GoalsModule } from './goals/goals.module';
import { RecoveriesModule } from './recoveries/recoveries.module';
import { ResultsModule } from './results/results.module';
import { SendTestModule } from './send-test/send-test.module';

/** The feature modules behind /api: imported by AppModule, and the scope of the OpenAPI document. */
export const API_MODULES = [AccessModule, GoalsModule, ResultsModule, DeliveryStateModule, ContractsModule, DevSinkModule, SendTestModule, RecoveriesModule];
