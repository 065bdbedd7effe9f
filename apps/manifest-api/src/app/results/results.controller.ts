import type { ServerResponse } from 'node:http';
import { applyDecorators, Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { GoalStore } from '../goals/goal-store.service';
import { IdPipe } from '../http/id.pipe';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { mapPage, PageOf, PageQuery, type Page } from '../http/pagination';
import { MAX_BATCH_RESULTS, ResultBatchDto, ResultContentDto, ReviseContentDto } from './dto/result-content.dto';
import { RESULT_ID_PATTERN, ResultStore } from './result-store.service';
import { IDEMPOTENCY_HEADER, IdempotencyKey, REPLAYED_HEADER } from './idempotency';
import { AttemptView, ResultBatchView, ResultSummaryView, ResultView, RevisionView } from './result.views';
import { ResultsService } from './results.service';

export const resultIdParam = () => Param('resultId', new IdPipe('The result', RESULT_ID_PATTERN));

/** An intake route's optional Idempotency-Key and its 201 answer, which says when it repeats `what` an earlier request created. */
function ApiIdempotentIntake(type: new () => object, what: 'the result' | 'the results'): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: IDEMPOTENCY_HEADER, required: false,
      description: `Makes retrying safe: within 24 h the same key with the same body answers with ${what} it created first `
        + '(and Idempotent-Replayed: true), the same key with another body gets 422 idempotency-key-reused. 1–255 printable ASCII characters.',
    }),
    ApiCreatedResponse({
      type,
      headers: { [REPLAYED_HEADER]: { description: `true when the answer repeats ${what} an earlier request with this Idempotency-Key created`, schema: { type: 'string', enum: ['true'] } } },
    }),
  );
}

@ApiTags('results')
@WorkspaceAuth()
@Controller()
export class ResultsController {
  constructor(private readonly results: ResultsService, private readonly store: ResultStore, private readonly goals: GoalStore) {}

  @Post('goals/:goalId/results')
  @ApiOperation({ summary: 'Hand a result to the goal: revision 1, workflowExecution = result id; emits result.revised', description: 'Revision 1 of a new result; its workflowExecution is the result id. Writes result.revised, and the result goes on through approval and delivery. Send an Idempotency-Key to retry safely: within 24 h the same key and body answer with the first result (201, Idempotent-Replayed: true).' })
  @ApiIdempotentIntake(ResultView, 'the result')
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  async create(
    @WorkspaceId() workspaceId: string,
    @Param('goalId', new IdPipe('The goal')) goalId: string,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Body() body: ResultContentDto,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<ResultView> {
    const { result, replayed } = await this.results.intake(workspaceId, goalId, body, idempotencyKey);
    if (!replayed) return ResultView.full(result, []);
    res.setHeader(REPLAYED_HEADER, 'true');
    return ResultView.full(result, await this.store.attempts(result.id));
  }

  @Post('goals/:goalId/results/batch')
  @ApiOperation({
    summary: `Hand up to ${MAX_BATCH_RESULTS} results to the goal at once, all or none; each emits result.revised`,
    description: `Each content becomes a new result exactly as POST /api/goals/{id}/results makes one, and all are written in one transaction: `
      + `a content the API refuses (400 or 422, its fields named \`results[i].…\`) refuses the whole batch, and nothing is stored. `
      + `The answer lists the new results' summaries in the order sent. An Idempotency-Key stands for the whole batch.`,
  })
  @ApiIdempotentIntake(ResultBatchView, 'the results')
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  async createBatch(
    @WorkspaceId() workspaceId: string,
    @Param('goalId', new IdPipe('The goal')) goalId: string,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Body() body: ResultBatchDto,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<ResultBatchView> {
    const { results, replayed } = await this.results.intakeBatch(workspaceId, goalId, body.results, idempotencyKey);
    if (replayed) res.setHeader(REPLAYED_HEADER, 'true');
    return ResultBatchView.of(results);
  }

  @Get('goals/:goalId/results')
  @ApiOperation({ summary: 'List the results of a goal, newest first, a page at a time', description: 'Summaries (no content, no attempts) of the goal\'s results, newest first. Pages of `limit` (1–100, default 50); follow `nextCursor` until it is null. Results handed over while you page never repeat or shift the pages.' })
  @ApiOkResponse({ type: PageOf(ResultSummaryView) })
  @ApiProblems(400, 404)
  async list(
    @WorkspaceId() workspaceId: string,
    @Param('goalId', new IdPipe('The goal')) goalId: string,
    @Query() query: PageQuery,
  ): Promise<Page<ResultSummaryView>> {
    await this.goals.find(workspaceId, goalId);
    return mapPage(await this.store.listForGoal(goalId, query), ResultSummaryView.of);
  }

  @Get('results/:resultId')
  @ApiOperation({ summary: 'Read a result: content, field values, delivery state and every attempt', description: 'The current revision\'s content, the per-result field values, the delivery state and every attempt so far.' })
  @ApiOkResponse({ type: ResultView })
  @ApiProblems(404)
  async get(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string): Promise<ResultView> {
    const result = await this.store.find(workspaceId, resultId);
    return ResultView.full(result, await this.store.attempts(resultId));
  }

  @Get('results/:resultId/attempts')
  @ApiOperation({ summary: 'The delivery attempts of a result, oldest first, a page at a time', description: 'Every delivery attempt of every revision, oldest first, paged like every list. The same attempts as in GET /api/results/{id}, for results with a long history.' })
  @ApiOkResponse({ type: PageOf(AttemptView) })
  @ApiProblems(400, 404)
  async attempts(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string, @Query() query: PageQuery): Promise<Page<AttemptView>> {
    await this.store.find(workspaceId, resultId);
    return mapPage(await this.store.attemptPage(resultId, query), AttemptView.of);
  }

  @Get('results/:resultId/revisions')
  @ApiOperation({ summary: 'The revision history of a result, oldest first: execution, parent, text-only change, new articles, title', description: 'Every revision the result had, oldest first, including re-sends after a receiver answered 409 (`resendOf`).' })
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
    description: 'Without newArticles a text change; with them a new cluster version whose parentExecution is the previous execution (spec §6). The same content again changes nothing.',
  })
  @ApiOkResponse({ type: ResultView })
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  async revise(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string, @Body() body: ReviseContentDto): Promise<ResultView> {
    const result = await this.results.revise(workspaceId, resultId, body);
    return ResultView.full(result, await this.store.attempts(resultId));
  }
}
