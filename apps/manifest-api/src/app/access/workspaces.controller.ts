import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { IdPipe } from '../http/id.pipe';
import { mapPage, PageOf, PageQuery, type Page } from '../http/pagination';
import { ApiProblems, BODY_PROBLEMS } from '../openapi/api-problems.decorator';
import { AdminAuth } from './auth.decorators';
import { CreateNamedDto } from './dto/create-named.dto';
import { ApiTokenView, CreatedApiTokenView, WorkspaceView } from './dto/access.views';
import { TokensService } from './tokens.service';
import { WorkspacesService } from './workspaces.service';

@ApiTags('workspaces')
@AdminAuth()
@Controller('workspaces')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService, private readonly tokens: TokensService) {}

  @Post()
  @ApiOperation({ summary: 'Create a workspace (admin token)', description: 'A workspace holds goals, results and API tokens; nothing in it is visible to another workspace. The answer holds its id, needed to create tokens.' })
  @ApiCreatedResponse({ type: WorkspaceView })
  @ApiProblems(...BODY_PROBLEMS)
  async create(@Body() body: CreateNamedDto): Promise<WorkspaceView> {
    return WorkspaceView.of(await this.workspaces.create(body.name.trim()));
  }

  @Get()
  @ApiOperation({ summary: 'List workspaces (admin token), oldest first, a page at a time', description: 'Every workspace that is not deleted, oldest first. Pages of `limit` (1–100, default 50); follow `nextCursor` until it is null.' })
  @ApiOkResponse({ type: PageOf(WorkspaceView) })
  @ApiProblems(400)
  async list(@Query() query: PageQuery): Promise<Page<WorkspaceView>> {
    return mapPage(await this.workspaces.list(query), WorkspaceView.of);
  }

  @Delete(':workspaceId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a workspace without goals (admin token): it disappears from every read and all its API tokens are revoked', description: 'Refused with 409 `workspace-not-empty` (member `goals`) while the workspace has goals: delete them first with DELETE /api/goals/{id}, which tells the other services. Then the workspace disappears from every read and all its API tokens are revoked (401 from then on; other replicas within 5 s). Its delivery history is kept.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(404, 409)
  async remove(@Param('workspaceId', new IdPipe('The workspace')) workspaceId: string): Promise<void> {
    this.tokens.forget(await this.workspaces.remove(workspaceId));
  }

  @Post(':workspaceId/tokens')
  @ApiOperation({ summary: 'Create an API token of the workspace; the token is shown only in this answer', description: 'The answer is the only time the token (`owd_` + 43 base64url characters) is shown; the service keeps only its SHA-256 hash. Give each integration its own token so it can be revoked alone.' })
  @ApiCreatedResponse({ type: CreatedApiTokenView })
  @ApiProblems(404, ...BODY_PROBLEMS)
  async createToken(
    @Param('workspaceId', new IdPipe('The workspace')) workspaceId: string,
    @Body() body: CreateNamedDto,
  ): Promise<CreatedApiTokenView> {
    const { entity, token } = await this.tokens.create(workspaceId, body.name.trim());
    return { ...ApiTokenView.of(entity), token };
  }

  @Get(':workspaceId/tokens')
  @ApiOperation({ summary: 'List the API tokens of the workspace (never the tokens themselves), oldest first, a page at a time', description: 'Name, display prefix, creation, last use (one-minute resolution) and revocation of each token, oldest first, never the token itself. Paged like every list (`limit`, `cursor` → `{ data, nextCursor }`).' })
  @ApiOkResponse({ type: PageOf(ApiTokenView) })
  @ApiProblems(400, 404)
  async listTokens(@Param('workspaceId', new IdPipe('The workspace')) workspaceId: string, @Query() query: PageQuery): Promise<Page<ApiTokenView>> {
    return mapPage(await this.tokens.list(workspaceId, query), ApiTokenView.of);
  }

  @Delete(':workspaceId/tokens/:tokenId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API token; requests with it get 401 from now on', description: 'From then on requests with the token get 401 (at once on this replica, within 5 s on the others). Revoking a revoked token changes nothing.' })
  @ApiNoContentResponse({ description: 'Revoked (also when it already was)' })
  @ApiProblems(404)
  async revokeToken(
    @Param('workspaceId', new IdPipe('The workspace')) workspaceId: string,
    @Param('tokenId', new IdPipe('The API token')) tokenId: string,
  ): Promise<void> {
    await this.tokens.revoke(workspaceId, tokenId);
  }
}
