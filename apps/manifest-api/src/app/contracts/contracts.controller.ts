import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { IdPipe } from '../http/id.pipe';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { CapabilityView, ContractView, GoalContractView, ReportOutcomeView, ReportView } from './contract.views';
import { ContractsService } from './contracts.service';
import { ManualContractDto } from './dto/manual-contract.dto';
import { TargetManifestDto } from './dto/target-manifest.dto';

const goalId = () => Param('goalId', new IdPipe('The goal'));

@ApiTags('contracts')
@WorkspaceAuth()
@Controller('goals/:goalId')
export class ContractsController {
  constructor(private readonly contracts: ContractsService) {}

  @Put('target-manifest')
  @ApiOperation({ summary: 'Receiver capability report (§4.2): the first establishes the contract, later ones only record capabilities', description: 'What the receiver renders natively (section and block types) and the fields it needs. The first receiver report establishes the contract; later ones are recorded as capabilities and never change it.' })
  @ApiOkResponse({ type: ReportOutcomeView })
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  report(@WorkspaceId() workspaceId: string, @goalId() id: string, @Body() body: TargetManifestDto): Promise<ReportOutcomeView> {
    return this.contracts.report(workspaceId, id, body);
  }

  @Get('contract')
  @ApiOperation({ summary: "The goal's contract (or null), its capability history and the latest report of each source", description: 'The contract the deliveries follow (or null), every capability any report named (inContract false for new ones) and the latest report of each source.' })
  @ApiOkResponse({ type: GoalContractView })
  @ApiProblems(404)
  async read(@WorkspaceId() workspaceId: string, @goalId() id: string): Promise<GoalContractView> {
    const { contract, capabilities, reports } = await this.contracts.read(workspaceId, id);
    return { contract: contract && ContractView.of(contract), capabilities: capabilities.map((c) => CapabilityView.of(c, contract)), reports: reports.map(ReportView.of) };
  }

  @Put('contract')
  @ApiOperation({ summary: 'Set the contract by hand, e.g. to adopt recorded capabilities (origin manual, contract.changed); reports never change it', description: 'Replaces the contract (origin manual) and writes contract.changed; results not yet sent are decided again against it.' })
  @ApiOkResponse({ type: ContractView })
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  async setManual(@WorkspaceId() workspaceId: string, @goalId() id: string, @Body() body: ManualContractDto): Promise<ContractView> {
    return ContractView.of(await this.contracts.setManual(workspaceId, id, body));
  }
}
