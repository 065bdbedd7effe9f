import { ApiProperty } from '../../openapi/api-docs';
import type { ApiTokenEntity } from '../api-token.entity';
import type { WorkspaceEntity } from '../workspace.entity';

export class WorkspaceView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;

  static of(w: WorkspaceEntity): WorkspaceView {
    return { id: w.id, name: w.name, createdAt: w.createdAt.toISOString() };
  }
}

export class ApiTokenView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) workspaceId!: string;
  @ApiProperty({ example: 'CMS plugin' }) name!: string;
  @ApiProperty({ example: 'owd_Zx81kQ2a', description: 'First characters of the token, to tell tokens apart' }) prefix!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Resolution: one minute' }) lastUsedAt!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt!: string | null;

  static of(t: ApiTokenEntity): ApiTokenView {
    return {
      id: t.id, workspaceId: t.workspaceId, name: t.name, prefix: t.prefix, createdAt: t.createdAt.toISOString(),
      lastUsedAt: t.lastUsedAt?.toISOString() ?? null, revokedAt: t.revokedAt?.toISOString() ?? null,
    };
  }
}

export class CreatedApiTokenView extends ApiTokenView {
  @ApiProperty({ example: 'owd_Zx81kQ2a…', description: 'The token itself. Shown only in this response; store it now.' })
  token!: string;
}

/** Who is calling: the API token (never its value) and its workspace; what a console shows after sign-in. */
export class SessionView {
  @ApiProperty({ type: WorkspaceView }) workspace!: WorkspaceView;
  @ApiProperty({ type: ApiTokenView }) token!: ApiTokenView;
}
