import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ContractChanged } from '@owd/events';
import { Outbox } from '@owd/kafka';
import type { ReceiverField } from '@owd/payload';
import { ContractEntity, type ContractOrigin } from './contract.entity';

export interface ContractContent {
  origin: ContractOrigin;
  sectionTypes: string[];
  blockTypes: string[];
  fields: ReceiverField[];
}

/** Writes a goal's contract and its contract.changed event in the caller's transaction. */
@Injectable()
export class ContractStore {
  constructor(private readonly outbox: Outbox) {}

  find(m: EntityManager, goalId: string): Promise<ContractEntity | null> {
    return m.getRepository(ContractEntity).findOneBy({ goalId });
  }

  async save(m: EntityManager, goal: { id: string; workspaceId: string }, current: ContractEntity | null, content: ContractContent, now: Date): Promise<ContractEntity> {
    const contract: ContractEntity = {
      goalId: goal.id, workspaceId: goal.workspaceId, version: (current?.version ?? 0) + 1, origin: content.origin,
      sectionTypes: content.sectionTypes, blockTypes: content.blockTypes, fields: content.fields,
      establishedAt: current?.establishedAt ?? now, updatedAt: now,
    };
    await m.getRepository(ContractEntity).save(contract);
    await this.outbox.add(m, ContractChanged, {
      goalId: contract.goalId, workspaceId: contract.workspaceId, version: contract.version, origin: contract.origin,
      sectionTypes: contract.sectionTypes, blockTypes: contract.blockTypes, fields: contract.fields,
    }, { correlationId: goal.id });
    return contract;
  }
}
