import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { IdPipe } from '../http/id.pipe';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { SendTestDto } from './dto/send-test.dto';
import { SendTestService } from './send-test.service';
import { SendTestReportView } from './send-test.views';

@ApiTags('goals')
@WorkspaceAuth()
@Controller('goals/:goalId/send-test')
export class SendTestController {
  constructor(private readonly sendTest: SendTestService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send one sample event to the saved or a typed URL and show the answer',
    description: 'Answers 200 with a report whenever the request was valid, also when the receiver failed or the address was refused (outcome tells which).',
  })
  @ApiOkResponse({ type: SendTestReportView })
  @ApiProblems(404, 422, ...BODY_PROBLEMS)
  run(@WorkspaceId() workspaceId: string, @Param('goalId', new IdPipe('The goal')) goalId: string, @Body() body: SendTestDto): Promise<SendTestReportView> {
    return this.sendTest.send(workspaceId, goalId, body.url);
  }
}
