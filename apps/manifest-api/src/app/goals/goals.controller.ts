import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { IdPipe } from '../http/id.pipe';
import { mapPage, PageOf, PageQuery, type Page } from '../http/pagination';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { CreateGoalDto } from './dto/create-goal.dto';
import { SetSecretDto } from './dto/set-secret.dto';
import { UpdateGoalDto } from './dto/update-goal.dto';
import { GoalSecretService } from './goal-secret.service';
import { GoalView, SecretStateView } from './goal.views';
import { GoalsService } from './goals.service';

const goalId = () => Param('goalId', new IdPipe('The goal'));

@ApiTags('goals')
@WorkspaceAuth()
@Controller('goals')
export class GoalsController {
  constructor(private readonly goals: GoalsService, private readonly secrets: GoalSecretService) {}

  @Post()
  @ApiOperation({ summary: 'Create a goal (HTTP address channel); it starts in Test mode', description: 'A goal delivers results to one receiver over the HTTP address channel. It starts in Test mode with Send immediately off; `recipientUrl` is checked against the address restriction (422 `address-refused`). Writes goal.changed.' })
  @ApiCreatedResponse({ type: GoalView })
  @ApiProblems(...BODY_PROBLEMS, 422)
  async create(@WorkspaceId() workspaceId: string, @Body() body: CreateGoalDto): Promise<GoalView> {
    return GoalView.of(await this.goals.create(workspaceId, body));
  }

  @Get()
  @ApiOperation({ summary: 'List the goals of the workspace, oldest first, a page at a time', description: 'The live goals of the workspace, oldest first. Pages of `limit` (1–100, default 50); follow `nextCursor` until it is null.' })
  @ApiOkResponse({ type: PageOf(GoalView) })
  @ApiProblems(400)
  async list(@WorkspaceId() workspaceId: string, @Query() query: PageQuery): Promise<Page<GoalView>> {
    return mapPage(await this.goals.list(workspaceId, query), GoalView.of);
  }

  @Get(':goalId')
  @ApiOperation({ summary: 'Read a goal', description: 'All settings of the goal; the secret only as `{ set, setAt }`, and whether a Send test verified the current URL and secret.' })
  @ApiOkResponse({ type: GoalView })
  @ApiProblems(404)
  async get(@WorkspaceId() workspaceId: string, @goalId() id: string): Promise<GoalView> {
    return GoalView.of(await this.goals.get(workspaceId, id));
  }

  @Patch(':goalId')
  @ApiOperation({ summary: 'Change goal settings; every change emits a goal.changed snapshot', description: 'Absent keys stay unchanged; null clears a nullable setting. Changing the URL or the secret clears the verification; switching Send immediately on needs a verified Send test (409 `not-verified`). Every real change writes a goal.changed snapshot.' })
  @ApiOkResponse({ type: GoalView })
  @ApiProblems(404, 409, 422, ...BODY_PROBLEMS)
  async update(@WorkspaceId() workspaceId: string, @goalId() id: string, @Body() body: UpdateGoalDto): Promise<GoalView> {
    return GoalView.of(await this.goals.update(workspaceId, id, body));
  }

  @Delete(':goalId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a goal (goal.changed with deleted: true)', description: 'The goal is gone for the API at once and goal.changed with deleted: true tells the other services. Its results are no longer readable.' })
  @ApiNoContentResponse()
  @ApiProblems(404)
  async remove(@WorkspaceId() workspaceId: string, @goalId() id: string): Promise<void> {
    await this.goals.remove(workspaceId, id);
  }

  @Put(':goalId/secret')
  @ApiOperation({ summary: 'Set or change the receiver secret (write-only; never shown again)', description: '16–256 printable ASCII characters without spaces. Deliveries then carry it as Authorization: Bearer and an HMAC signature over the body. Stored sealed; never shown again. Clears the verification.' })
  @ApiOkResponse({ type: SecretStateView })
  @ApiProblems(404, ...BODY_PROBLEMS)
  async setSecret(@WorkspaceId() workspaceId: string, @goalId() id: string, @Body() body: SetSecretDto): Promise<SecretStateView> {
    return SecretStateView.of(await this.secrets.set(workspaceId, id, body.secret));
  }

  @Delete(':goalId/secret')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove the receiver secret: deliveries then carry neither Authorization nor X-SH-Signature', description: 'Deliveries then carry neither Authorization nor X-SH-Signature. Clears the verification.' })
  @ApiNoContentResponse()
  @ApiProblems(404)
  async clearSecret(@WorkspaceId() workspaceId: string, @goalId() id: string): Promise<void> {
    await this.secrets.clear(workspaceId, id);
  }
}
