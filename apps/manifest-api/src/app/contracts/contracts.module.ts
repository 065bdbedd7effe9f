import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { GoalsModule } from '../goals/goals.module';
import { ContractStore } from './contract-store.service';
import { ContractsController } from './contracts.controller';
import { ContractsService } from './contracts.service';

/** Receiver capability reports, the capability history and the goal's content contract. */
@Module({
  imports: [AccessModule, GoalsModule],
  controllers: [ContractsController],
  providers: [ContractsService, ContractStore],
})
export class ContractsModule {}
