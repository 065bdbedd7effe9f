import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '../openapi/api-docs';
import { TokenId, WorkspaceAuth, WorkspaceId } from './auth.decorators';
import { ApiTokenView, SessionView, WorkspaceView } from './dto/access.views';
import { TokensService } from './tokens.service';
import { WorkspacesService } from './workspaces.service';

@ApiTags('workspaces')
@WorkspaceAuth()
@Controller('me')
export class SessionController {
  constructor(private readonly workspaces: WorkspacesService, private readonly tokens: TokensService) {}

  @Get()
  @ApiOperation({ summary: 'The calling API token and its workspace (a sign-in check; the token value is never returned)', description: 'What the console shows after sign-in: the calling API token (name, prefix, times) and its workspace. Useful to check that a token works.' })
  @ApiOkResponse({ type: SessionView })
  async me(@WorkspaceId() workspaceId: string, @TokenId() tokenId: string): Promise<SessionView> {
    const [workspace, token] = await Promise.all([this.workspaces.get(workspaceId), this.tokens.get(workspaceId, tokenId)]);
    return { workspace: WorkspaceView.of(workspace), token: ApiTokenView.of(token) };
  }
}
