import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { TokenName, WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { IdPipe } from '../http/id.pipe';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { CreateRecoveryDto } from './dto/create-recovery.dto';
import { FailedDeliveriesQuery } from './dto/failed-deliveries.query';
import { RecoveriesService } from './recoveries.service';
import { FailedDeliveryPageView, RecoveryView } from './recovery.views';

const RECOVERY_EXAMPLE: RecoveryView = {
  id: '6c0f3f7e-2b1a-4c55-9d0e-7a4b1f2e9c31', goalId: null, since: '2026-11-21T00:00:00.000Z', errorClass: 'server_error',
  count: 12, remaining: 0, progress: { delivered: 9, failed: 1, pending: 2 }, done: false, createdAt: '2026-11-21T12:00:00.000Z',
};

@ApiTags('recoveries')
@WorkspaceAuth()
@Controller()
export class RecoveriesController {
  constructor(private readonly recoveries: RecoveriesService) {}

  @Get('failed-deliveries')
  @ApiOperation({
    summary: 'List failed deliveries across the goals of the workspace',
    description: 'Results whose delivery failed (no automatic attempt left), newest failure first, filtered by goal, failure time and '
      + 'error class; pages of `limit` with an opaque `nextCursor`.',
  })
  @ApiOkResponse({
    type: FailedDeliveryPageView,
    example: {
      data: [{
        resultId: 'res_4f1c0b7e9a2d4c6f8e1a3b5c7d9e0f12', goalId: '0b5e2c1d-8f3a-4e6b-9c7d-1a2b3c4d5e6f', goalName: 'Economy desk',
        title: 'Rates rise again', revision: 1, deliveryId: '7d4c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09', failedAt: '2026-11-21T10:06:02.511Z',
        reason: 'attempt 1: the receiver answered 422; not retried automatically (fix the address, data or authentication)',
        lastError: { status: 422, outcome: 'permanent', errorClass: 'client_error', errorMessage: 'receiver answered 422 Unprocessable Entity', attemptedAt: '2026-11-21T10:06:02.120Z' },
      }],
      nextCursor: null,
    },
  })
  @ApiProblems(400, 404)
  failed(@WorkspaceId() workspaceId: string, @Query() query: FailedDeliveriesQuery): Promise<FailedDeliveryPageView> {
    return this.recoveries.failed(workspaceId, query);
  }

  @Post('recoveries')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Retry every failed delivery of the workspace (or of a goal, or of an error class) since a time',
    description: 'Each matching failed delivery is retried as a new manual series with the same bytes and X-SH-Delivery '
      + '(delivery.retry-requested, as POST /results/{resultId}/retry). At most 1000 per recovery; `remaining` counts the rest. '
      + 'Safe to run twice: a failure is recovered once, and a delivery already retried or delivered is not picked again.',
  })
  @ApiBody({ type: CreateRecoveryDto, examples: { all: { value: { since: '2026-11-21T00:00:00Z' } }, goal: { value: { goalId: '0b5e2c1d-8f3a-4e6b-9c7d-1a2b3c4d5e6f', since: '2026-11-21T00:00:00Z', errorClass: 'server_error' } } } })
  @ApiAcceptedResponse({ type: RecoveryView, example: { ...RECOVERY_EXAMPLE, progress: { delivered: 0, failed: 0, pending: 12 } } })
  @ApiProblems(404, ...BODY_PROBLEMS)
  recover(@WorkspaceId() workspaceId: string, @Body() body: CreateRecoveryDto, @TokenName() tokenName?: string): Promise<RecoveryView> {
    return this.recoveries.recover(workspaceId, body, tokenName);
  }

  @Get('recoveries/:recoveryId')
  @ApiOperation({ summary: 'Progress of a recovery', description: 'How many of the deliveries it retried were delivered, failed again or are still being retried. A recovery is kept 30 days; after that it is 404.' })
  @ApiOkResponse({ type: RecoveryView, example: RECOVERY_EXAMPLE })
  @ApiProblems(404)
  get(@WorkspaceId() workspaceId: string, @Param('recoveryId', new IdPipe('The recovery')) id: string): Promise<RecoveryView> {
    return this.recoveries.get(workspaceId, id);
  }
}
