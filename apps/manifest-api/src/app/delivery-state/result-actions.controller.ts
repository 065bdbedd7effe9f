import { Body, Controller, HttpCode, Post, Put } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { TokenName, WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { ResultStore } from '../results/result-store.service';
import { ResultView } from '../results/result.views';
import { resultIdParam } from '../results/results.controller';
import { SetFieldValuesDto } from './dto/set-field-values.dto';
import { ResultActionsService } from './result-actions.service';

@ApiTags('results')
@WorkspaceAuth()
@Controller('results/:resultId')
export class ResultActionsController {
  constructor(private readonly actions: ResultActionsService, private readonly store: ResultStore) {}

  @Post('approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve the current revision for sending (result.approved); 409 when it is approved already or not approvable', description: 'For results waiting for approval (moderation, or a required field filled by hand). Records the token name as approver and writes result.approved.' })
  @ApiOkResponse({ type: ResultView })
  @ApiProblems(404, 409)
  async approve(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string, @TokenName() tokenName?: string): Promise<ResultView> {
    return this.view(await this.actions.approve(workspaceId, resultId, tokenName));
  }

  @Put('fields')
  @ApiOperation({ summary: 'Set the per-result receiver field values (result.fields-set); 422 names a value that does not fit', description: 'Replaces the per-result receiver field values `{ values }`; null clears one. Checked against the goal\'s contract fields (422 names `values.<key>`). Writes result.fields-set.' })
  @ApiOkResponse({ type: ResultView })
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  async setFields(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string, @Body() body: SetFieldValuesDto): Promise<ResultView> {
    return this.view(await this.actions.setFields(workspaceId, resultId, body.values));
  }

  @Post('retry')
  @HttpCode(202)
  @ApiOperation({ summary: 'Retry a failed delivery by hand (delivery.retry-requested); 409 unless the delivery failed', description: 'Only in state failed: the same content is sent again with the same X-SH-Delivery (202, delivery.retry-requested).' })
  @ApiAcceptedResponse({ type: ResultView })
  @ApiProblems(404, 409)
  async retry(@WorkspaceId() workspaceId: string, @resultIdParam() resultId: string): Promise<ResultView> {
    return this.view(await this.actions.retry(workspaceId, resultId));
  }

  private async view(result: Parameters<typeof ResultView.full>[0]): Promise<ResultView> {
    return ResultView.full(result, await this.store.attempts(result.id));
  }
}
