import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { GoalStore } from '../goals/goal-store.service';
import { IdPipe } from '../http/id.pipe';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { ListResultsQuery } from './dto/list-results.query';
import { ResultContentDto, ReviseContentDto } from './dto/result-content.dto';
import { RESULT_ID_PATTERN, ResultStore } from './result-store.service';
import { ResultSummaryView, ResultView, RevisionView } from './result.views';
import { ResultsService } from './results.service';

export const resultIdParam = () => Param('resultId', new IdPipe('The result', RESULT_ID_PATTERN));

@ApiTags('results')
@WorkspaceAuth()
@Controller()
export class ResultsController {
  constructor(private readonly results: ResultsService, private readonly store: ResultStore, private readonly goals: GoalStore) {}

  @Post('goals/:goalId/results')
  @ApiOperation({ summary: 'Hand a result to the goal: revision 1, workflowExecution = result id; emits result.revised' })
  @ApiCreatedResponse({ type: ResultView })
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  async create(
    @WorkspaceId() workspaceId: string,
    @Param('goalId', new IdPipe('The goal')) goalId: string,
    @Body() body: ResultContentDto,
  ): Promise<ResultView> {
    return ResultView.full(await this.results.intake(workspaceId, goalId, body), []);
  }

  @Get('goals/:goalId/results')
  @ApiOperation({ summary: 'List the results of a goal, newest first' })
  @ApiOkResponse({ type: [ResultSummaryView] })
  @ApiProblems(404)
  async list(
    @WorkspaceId() workspaceId: string,
    @Param('goalId', new IdPipe('The goal')) goalId: string,
    @Query() query: ListResultsQuery,
  ): Promise<ResultSummaryView[]> {
    await this.goals.find(workspaceId, goalId);
    return (await this.store.listForGoal(goalId, query.limit ?? 50, query.offset ?? 0)).map(ResultSummaryView.of);
  }

  @Get('results/:resultId')
  @ApiOperation({ summary: 'Read a result: content, field values, delivery state and every attempt' })
  @ApiOkResponse({ type: ResultView })
  @ApiProblems(404)
  async get(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string): Promise<ResultView> {
    const result = await this.store.find(workspaceId, resultId);
    return ResultView.full(result, await this.store.attempts(resultId));
  }

  @Get('results/:resultId/revisions')
  @ApiOperation({ summary: 'The revision history of a result, oldest first: execution, parent, text-only change, new articles, title' })
  @ApiOkResponse({ type: [RevisionView] })
  @ApiProblems(404)
  async revisions(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string): Promise<RevisionView[]> {
    await this.store.find(workspaceId, resultId);
    return (await this.store.revisions(resultId)).map(RevisionView.of);
  }

  @Put('results/:resultId/content')
  @ApiOperation({
    summary: 'Change the content: a text change, or with newArticles a new cluster version (§6). '
      + 'A new revision with a new workflowExecution and a result.revised event; the same content again changes nothing.',
  })
  @ApiOkResponse({ type: ResultView })
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  async revise(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string, @Body() body: ReviseContentDto): Promise<ResultView> {
    const result = await this.results.revise(workspaceId, resultId, body);
    return ResultView.full(result, await this.store.attempts(resultId));
  }
}
