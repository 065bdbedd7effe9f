import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { UUID_PATTERN } from '../http/id.pipe';
import { keysetPage, type Page, type PageQuery } from '../http/pagination';
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

  /** Oldest first. */
  async list(workspaceId: string, page: PageQuery): Promise<Page<ApiTokenEntity>> {
    await this.requireWorkspace(workspaceId);
    const query = this.dataSource.getRepository(ApiTokenEntity).createQueryBuilder('t').where('t.workspace_id = :workspaceId', { workspaceId });
    return keysetPage(query, { time: 't.created_at', id: 't.id', idPattern: UUID_PATTERN, order: 'ASC', keyOf: (t) => [t.createdAt, t.id] }, page);
  }

  async get(workspaceId: string, tokenId: string): Promise<ApiTokenEntity> {
    const found = await this.dataSource.getRepository(ApiTokenEntity).findOneBy({ id: tokenId, workspaceId });
    if (!found) throw problems.notFound('The API token');
    return found;
  }

  /** Idempotent: revoking a revoked token changes nothing. */
  async revoke(workspaceId: string, tokenId: string): Promise<void> {
    await this.requireWorkspace(workspaceId);
    const repo = this.dataSource.getRepository(ApiTokenEntity);
    const found = await repo.findOneBy({ id: tokenId, workspaceId });
    if (!found) throw problems.notFound('The API token');
    await repo.update({ id: tokenId, revokedAt: IsNull() }, { revokedAt: new Date() });
    this.live.forget(tokenId);
  }

  /** Drops tokens revoked elsewhere (a deleted workspace) from this replica's cache at once. */
  forget(tokenIds: readonly string[]): void {
    for (const id of tokenIds) this.live.forget(id);
  }

  /** The live token behind `token`, or undefined for an unknown or revoked one. */
  /** `hash` is `hashToken(token)` where the caller has it already. */
  async authenticate(token: string, hash = hashToken(token)): Promise<AuthenticatedToken | undefined> {
    if (!token.startsWith(TOKEN_PREFIX)) return undefined;
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
    const exists = await this.dataSource.getRepository(WorkspaceEntity).existsBy({ id: workspaceId, deletedAt: IsNull() });
    if (!exists) throw problems.notFound('The workspace');
  }
}
