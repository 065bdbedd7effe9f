import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { WorkspaceAuth, WorkspaceId } from '../access/auth.decorators';
import { GoalStore } from '../goals/goal-store.service';
import { IdPipe } from '../http/id.pipe';
import { ApiProblems, SERVER_PROBLEMS } from '../openapi/api-problems.decorator';
import { DevSinkService } from './dev-sink.service';
import { DevSinkReceiptView, DevSinkRequestView } from './dev-sink.views';
import type { RawBodyRequest } from './raw-body.middleware';

/** Headers kept out of the record: the bearer secret, and hop-by-hop noise. */
const REDACTED = new Set(['authorization', 'cookie']);

function recordedHeaders(req: RawBodyRequest): Record<string, string> {
  return Object.fromEntries(Object.entries(req.headers)
    .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
    .map(([name, value]) => [name, REDACTED.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value]));
}

@ApiTags('development sink')
@Controller()
export class DevSinkController {
  constructor(private readonly sink: DevSinkService, private readonly goals: GoalStore) {}

  @Post('internal/dev-sink')
  @HttpCode(200)
  @ApiOperation({ summary: 'Development sink (DEV_SINK_ENABLED=true only): records headers and raw body of a delivery for the goal in X-SH-Goal', description: 'Point a Test-mode goal at /internal/dev-sink to see exactly what would be delivered. The raw body bytes are kept (signatures can be checked), Authorization is stored as [redacted], the newest 100 per goal are kept. 404 while disabled.' })
  @ApiHeader({ name: 'X-SH-Goal', required: true, description: 'The goal the request belongs to' })
  @ApiOkResponse({ type: DevSinkReceiptView })
  @ApiProblems(400, 404, 413, ...SERVER_PROBLEMS)
  async receive(@Req() req: RawBodyRequest): Promise<DevSinkReceiptView> {
    const header = req.headers['x-sh-goal'];
    const saved = await this.sink.record(Array.isArray(header) ? header[0] : header, req.method ?? 'POST', recordedHeaders(req), req.rawBody ?? Buffer.alloc(0));
    return { received: true, id: saved.id };
  }

  @Get('goals/:goalId/dev-sink')
  @WorkspaceAuth()
  @ApiOperation({ summary: 'What the development sink received for this goal, newest first (DEV_SINK_ENABLED=true only)', description: 'The requests the development sink recorded for the goal, newest first (at most 100), with the body as text and its SHA-256. 404 while the sink is disabled.' })
  @ApiOkResponse({ type: [DevSinkRequestView] })
  @ApiProblems(404)
  async list(@WorkspaceId() workspaceId: string, @Param('goalId', new IdPipe('The goal')) goalId: string): Promise<DevSinkRequestView[]> {
    this.sink.assertEnabled();
    await this.goals.find(workspaceId, goalId);
    return (await this.sink.list(goalId)).map(DevSinkRequestView.of);
  }
}
