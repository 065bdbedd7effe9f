import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../http/id.pipe';
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
  @ApiOperation({ summary: 'Create a workspace (admin token)' })
  @ApiCreatedResponse({ type: WorkspaceView })
  @ApiProblems(...BODY_PROBLEMS)
  async create(@Body() body: CreateNamedDto): Promise<WorkspaceView> {
    return WorkspaceView.of(await this.workspaces.create(body.name.trim()));
  }

  @Get()
  @ApiOperation({ summary: 'List workspaces (admin token)' })
  @ApiOkResponse({ type: [WorkspaceView] })
  async list(): Promise<WorkspaceView[]> {
    return (await this.workspaces.list()).map(WorkspaceView.of);
  }

  @Post(':workspaceId/tokens')
  @ApiOperation({ summary: 'Create an API token of the workspace; the token is shown only in this answer' })
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
  @ApiOperation({ summary: 'List the API tokens of the workspace (never the tokens themselves)' })
  @ApiOkResponse({ type: [ApiTokenView] })
  @ApiProblems(404)
  async listTokens(@Param('workspaceId', new IdPipe('The workspace')) workspaceId: string): Promise<ApiTokenView[]> {
    return (await this.tokens.list(workspaceId)).map(ApiTokenView.of);
  }

  @Delete(':workspaceId/tokens/:tokenId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API token; requests with it get 401 from now on' })
  @ApiNoContentResponse({ description: 'Revoked (also when it already was)' })
  @ApiProblems(404)
  async revokeToken(
    @Param('workspaceId', new IdPipe('The workspace')) workspaceId: string,
    @Param('tokenId', new IdPipe('The API token')) tokenId: string,
  ): Promise<void> {
    await this.tokens.revoke(workspaceId, tokenId);
  }
}
