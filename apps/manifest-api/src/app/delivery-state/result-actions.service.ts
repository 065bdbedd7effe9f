import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ResultApproved, ResultFieldsSet } from '@owd/events';
import { Outbox } from '@owd/kafka';
import type { FieldValue } from '@owd/payload';
import { ContractEntity } from '../contracts/contract.entity';
import { fieldValueErrors } from '../contracts/field-values';
import { problems } from '../http/problem';
import { ResultEntity, type ResultState } from '../results/result.entity';
import { ResultStore } from '../results/result-store.service';
import { requestRetries } from './request-retries';

const APPROVABLE: readonly ResultState[] = ['received', 'needs_approval', 'awaiting_approval'];

/** What a person does on the result panel; each action is one workflow event for payload-builder and dispatcher. */
@Injectable()
export class ResultActionsService {
  constructor(private readonly dataSource: DataSource, private readonly outbox: Outbox, private readonly store: ResultStore) {}

  /** Approves the current revision, the number payload-builder waits for (it learns re-sent numbers from result.status). */
  approve(workspaceId: string, resultId: string, approvedBy: string | undefined): Promise<ResultEntity> {
    return this.dataSource.transaction(async (m) => {
      const result = await this.store.lock(m, workspaceId, resultId);
      if ((result.approvedRevision ?? 0) >= result.revision) {
        throw problems.conflict('not-approvable', `Revision ${result.revision} is approved already; there is nothing to approve.`,
          { state: result.state, revision: result.revision });
      }
      if (!APPROVABLE.includes(result.state)) {
        throw problems.conflict('not-approvable', `A result in state ${result.state} cannot be approved.`, { state: result.state, revision: result.revision });
      }
      const next = await this.save(m, { ...result, approvedRevision: result.revision });
      await this.outbox.add(m, ResultApproved, { resultId, goalId: result.goalId, revision: result.revision, ...(approvedBy ? { approvedBy } : {}) }, { correlationId: resultId });
      return next;
    });
  }

  setFields(workspaceId: string, resultId: string, values: Record<string, FieldValue>): Promise<ResultEntity> {
    return this.dataSource.transaction(async (m) => {
      const result = await this.store.lock(m, workspaceId, resultId);
      const contract = await m.getRepository(ContractEntity).findOneBy({ goalId: result.goalId });
      const errors = fieldValueErrors(values, contract?.fields ?? null, 'values');
      if (errors.length) {
        throw problems.unprocessable('invalid-field-values', 'Receiver field values refused', "Some values do not fit the goal's receiver fields.", errors);
      }
      const next = await this.save(m, { ...result, fieldValues: values, fieldValuesVersion: result.fieldValuesVersion + 1 });
      await this.outbox.add(m, ResultFieldsSet, { resultId, goalId: result.goalId, values, fieldValuesVersion: next.fieldValuesVersion },
        { correlationId: resultId });
      return next;
    });
  }

  /** Only a failed delivery is retried by hand: same content, same X-SH-Delivery. */
  retry(workspaceId: string, resultId: string): Promise<ResultEntity> {
    return this.dataSource.transaction(async (m) => {
      const result = await this.store.lock(m, workspaceId, resultId);
      if (result.state !== 'failed' || result.deliveryId === null) {
        throw problems.conflict('not-retryable', `Only a failed delivery can be retried; this result is ${result.state}.`, { state: result.state });
      }
      const stateReason = 'manual retry requested';
      const at = await requestRetries(m, this.outbox, [{ resultId, goalId: result.goalId, deliveryId: result.deliveryId }], stateReason);
      return { ...result, state: 'retry_requested', stateReason, stateUpdatedAt: at, updatedAt: at };
    });
  }

  private async save(m: EntityManager, result: ResultEntity): Promise<ResultEntity> {
    const next = { ...result, updatedAt: new Date() };
    await m.getRepository(ResultEntity).save(next);
    return next;
  }
}
