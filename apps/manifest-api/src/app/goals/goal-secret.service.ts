import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { parseEncryptionKey, SecretBox } from '@owd/secret-box';
import type { ManifestApiConfig } from '../manifest-api.config';
import type { GoalEntity } from './goal.entity';
import { GoalStore } from './goal-store.service';
import { unverified } from './verification';

/**
 * The receiver secret: write-only, sealed at rest and in goal.changed, bound to its goal by the AAD. A Send test
 * verified the URL with the old secret, so setting, changing or removing it clears the verification.
 */
@Injectable()
export class GoalSecretService {
  private readonly box: SecretBox;

  constructor(private readonly dataSource: DataSource, private readonly store: GoalStore, config: ConfigService<ManifestApiConfig, true>) {
    this.box = new SecretBox(parseEncryptionKey(config.get('SECRET_ENCRYPTION_KEY', { infer: true })));
  }

  /** The clear secret, only for signing a Send test in this process; never returned by the API. */
  reveal(goal: GoalEntity): string | null {
    return goal.secretSealed === null ? null : this.box.open(goal.secretSealed, goal.id);
  }

  set(workspaceId: string, goalId: string, secret: string): Promise<GoalEntity> {
    return this.dataSource.transaction(async (m) => {
      const goal = await this.store.lock(m, workspaceId, goalId);
      return this.store.saveChange(m, { ...unverified(goal), secretSealed: this.box.seal(secret, goal.id), secretSetAt: new Date() });
    });
  }

  /** Removing an absent secret changes nothing and emits nothing. */
  async clear(workspaceId: string, goalId: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const goal = await this.store.lock(m, workspaceId, goalId);
      if (goal.secretSealed !== null) await this.store.saveChange(m, { ...unverified(goal), secretSealed: null, secretSetAt: null });
    });
  }
}
