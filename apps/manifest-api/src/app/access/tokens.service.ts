import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { problems } from '../http/problem';
import { CLOCK, type Clock } from '../util/clock';
import { ApiTokenEntity } from './api-token.entity';
import { TokenCache } from './token-cache';
import { generateToken, hashToken, TOKEN_PREFIX } from './token-codec';
import { WorkspaceEntity } from './workspace.entity';

export interface AuthenticatedToken {
  tokenId: string;
  tokenName: string;
  workspaceId: string;
}

/** last_used_at is a hint for people, so one write per token per minute is precise enough. */
const LAST_USED_RESOLUTION = "interval '1 minute'";

@Injectable()
export class TokensService {
  private readonly live: TokenCache<AuthenticatedToken>;

  constructor(private readonly dataSource: DataSource, @Inject(CLOCK) clock: Clock) {
    this.live = new TokenCache(clock);
  }

  async create(workspaceId: string, name: string): Promise<{ entity: ApiTokenEntity; token: string }> {
    await this.requireWorkspace(workspaceId);
    const { token, prefix, hash } = generateToken();
    const entity = this.dataSource.getRepository(ApiTokenEntity).create({
      id: randomUUID(), workspaceId, name, prefix, tokenHash: hash, createdAt: new Date(), lastUsedAt: null, revokedAt: null,
    });
    await this.dataSource.getRepository(ApiTokenEntity).insert(entity);
    return { entity, token };
  }

  async list(workspaceId: string): Promise<ApiTokenEntity[]> {
    await this.requireWorkspace(workspaceId);
    return this.dataSource.getRepository(ApiTokenEntity).find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(workspaceId: string, tokenId: string): Promise<ApiTokenEntity> {
    const found = await this.dataSource.getRepository(ApiTokenEntity).findOneBy({ id: tokenId, workspaceId });
    if (!found) throw problems.notFound('The API token');
    return found;
  }

  /** Idempotent: revoking a revoked token changes nothing. */
  async revoke(workspaceId: string, tokenId: string): Promise<void> {
    const repo = this.dataSource.getRepository(ApiTokenEntity);
    const found = await repo.findOneBy({ id: tokenId, workspaceId });
    if (!found) throw problems.notFound('The API token');
    await repo.update({ id: tokenId, revokedAt: IsNull() }, { revokedAt: new Date() });
    this.live.forget(tokenId);
  }

  /** The live token behind `token`, or undefined for an unknown or revoked one. */
  async authenticate(token: string): Promise<AuthenticatedToken | undefined> {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
    const hash = hashToken(token);
    const cached = this.live.get(hash);
    if (cached) return cached;
    const [row]: { id: string; name: string; workspace_id: string; stale: boolean }[] = await this.dataSource.query(
      `SELECT id, name, workspace_id, (last_used_at IS NULL OR last_used_at < now() - ${LAST_USED_RESOLUTION}) AS stale
         FROM manifest_api.api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
      [hash],
    );
    if (!row) return undefined;
    if (row.stale) await this.dataSource.query(`UPDATE manifest_api.api_tokens SET last_used_at = now() WHERE id = $1`, [row.id]);
    const found = { tokenId: row.id, tokenName: row.name, workspaceId: row.workspace_id };
    this.live.set(hash, found);
    return found;
  }

  private async requireWorkspace(workspaceId: string): Promise<void> {
    const exists = await this.dataSource.getRepository(WorkspaceEntity).existsBy({ id: workspaceId });
    if (!exists) throw problems.notFound('The workspace');
  }
}
