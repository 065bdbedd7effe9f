import { Module } from '@nestjs/common';
import { CLOCK, systemClock } from '../util/clock';
import { ApiAuthGuard } from './api-auth.guard';
import { AuthenticationService } from './authentication.service';
import { SessionController } from './session.controller';
import { TokensService } from './tokens.service';
import { WorkspacesController } from './workspaces.controller';
import { WorkspacesService } from './workspaces.service';

/** Workspaces, their API tokens, authentication and the per-token rate limit. Import it where WorkspaceAuth is used. */
@Module({
  controllers: [WorkspacesController, SessionController],
  providers: [WorkspacesService, TokensService, AuthenticationService, ApiAuthGuard, { provide: CLOCK, useValue: systemClock }],
  exports: [AuthenticationService, ApiAuthGuard],
})
export class AccessModule {}
