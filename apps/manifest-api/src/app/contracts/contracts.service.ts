import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CapabilityReported } from '@owd/events';
import { Outbox } from '@owd/kafka';
import type { ReceiverField } from '@owd/payload';
import { GoalStore } from '../goals/goal-store.service';
import { problems } from '../http/problem';
import { CapabilityEntity } from './capability.entity';
import { recordCapabilities, type CapabilityRef } from './capability-history';
import { ContractStore } from './contract-store.service';
import type { ContractEntity } from './contract.entity';
import type { ManualContractDto } from './dto/manual-contract.dto';
import type { ReportedFieldDto } from './dto/reported-field.dto';
import type { TargetManifestDto } from './dto/target-manifest.dto';
import { fieldRuleErrors, toReceiverFields } from './field-rules';
import { TargetReportEntity } from './target-report.entity';

export interface ReportOutcome {
  source: 'receiver' | 'plugin';
  contractEstablished: boolean;
  newCapabilities: CapabilityRef[];
  appliedFields: boolean;
}

function checkedFields(fields: readonly ReportedFieldDto[], slug: string): ReceiverField[] {
  const errors = fieldRuleErrors(fields);
  if (errors.length) throw problems.unprocessable(slug, 'Receiver fields break a rule', 'Some fields do not follow the field rules (§2.4).', errors);
  return toReceiverFields(fields);
}

/**
 * Capability reports and contracts (§1 negotiation): the first receiver report of a goal without a contract
 * establishes it; later reports only record capabilities, so no report holds a delivery back. A person adopts
 * recorded capabilities by setting the contract (PUT …/contract, origin manual).
 */
@Injectable()
export class ContractsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly goals: GoalStore,
    private readonly contracts: ContractStore,
    private readonly outbox: Outbox,
  ) {}

  async report(workspaceId: string, goalId: string, dto: TargetManifestDto): Promise<ReportOutcome> {
    const fields = checkedFields(dto.fields ?? [], 'invalid-capability-report');
    const sectionTypes = [...new Set(dto.sections ?? [])];
    const blockTypes = [...new Set(dto.blocks ?? [])];
    const source = dto.source === 'receiver' ? 'receiver' : 'plugin';
    const now = new Date();
    return this.dataSource.transaction(async (m) => {
      const goal = await this.goals.lock(m, workspaceId, goalId);
      const previous = await m.getRepository(TargetReportEntity).findOneBy({ goalId, source });
      await m.getRepository(TargetReportEntity).save({
        goalId, source, reportedSource: dto.source ?? null, sectionTypes, blockTypes, fields,
        firstReportedAt: previous?.firstReportedAt ?? now, reportedAt: now,
      });
      const newCapabilities = await recordCapabilities(m, goalId, source, [
        ...sectionTypes.map((name) => ({ kind: 'section' as const, name })),
        ...blockTypes.map((name) => ({ kind: 'block' as const, name })),
        ...fields.map((f) => ({ kind: 'field' as const, name: f.key })),
      ], now);
      const establishes = source === 'receiver' && goal.channel === 'http_address' && !(await this.contracts.find(m, goalId));
      if (establishes) await this.contracts.save(m, goal, null, { origin: 'receiver', sectionTypes, blockTypes, fields }, now);
      // Every report, changed or not: the notifier needs to know the receiver is still reporting, and what it now requires.
      await this.outbox.add(m, CapabilityReported, {
        goalId, workspaceId, source: dto.source ?? 'plugin', sectionTypes, blockTypes, fieldKeys: fields.map((f) => f.key),
        requiredFields: fields.filter((f) => f.required).map((f) => ({ key: f.key, label: f.label })), reportedAt: now.toISOString(),
      }, { correlationId: goalId });
      return { source, contractEstablished: establishes, newCapabilities, appliedFields: establishes };
    });
  }

  async setManual(workspaceId: string, goalId: string, dto: ManualContractDto): Promise<ContractEntity> {
    const fields = checkedFields(dto.fields ?? [], 'invalid-contract');
    return this.dataSource.transaction(async (m) => {
      const goal = await this.goals.lock(m, workspaceId, goalId);
      const current = await this.contracts.find(m, goalId);
      const content = { origin: 'manual' as const, sectionTypes: [...new Set(dto.sectionTypes ?? [])], blockTypes: [...new Set(dto.blockTypes ?? [])], fields };
      return this.contracts.save(m, goal, current, content, new Date());
    });
  }

  async read(workspaceId: string, goalId: string) {
    await this.goals.find(workspaceId, goalId);
    const m = this.dataSource.manager;
    return {
      contract: await this.contracts.find(m, goalId),
      capabilities: await m.getRepository(CapabilityEntity).find({ where: { goalId }, order: { kind: 'ASC', name: 'ASC' } }),
      reports: await m.getRepository(TargetReportEntity).find({ where: { goalId }, order: { source: 'ASC' } }),
    };
  }
}
