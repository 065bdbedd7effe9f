import { ApiProperty } from '../openapi/api-docs';
import { ReportedFieldDto } from './dto/reported-field.dto';
import { CAPABILITY_KINDS, type CapabilityEntity, type CapabilityKind } from './capability.entity';
import type { ContractEntity } from './contract.entity';
import type { TargetReportEntity } from './target-report.entity';

export class ContractView {
  @ApiProperty({ enum: ['receiver', 'manual'] }) origin!: 'receiver' | 'manual';
  @ApiProperty({ description: 'Grows with every change; the version of the latest contract.changed' }) version!: number;
  @ApiProperty({ type: [String] }) sectionTypes!: string[];
  @ApiProperty({ type: [String] }) blockTypes!: string[];
  @ApiProperty({ type: [ReportedFieldDto] }) fields!: ReportedFieldDto[];
  @ApiProperty({ format: 'date-time' }) establishedAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;

  static of(c: ContractEntity): ContractView {
    return {
      origin: c.origin, version: c.version, sectionTypes: c.sectionTypes, blockTypes: c.blockTypes, fields: c.fields,
      establishedAt: c.establishedAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
    };
  }
}

export class CapabilityRefView {
  @ApiProperty({ enum: CAPABILITY_KINDS }) kind!: CapabilityKind;
  @ApiProperty({ example: 'faq' }) name!: string;
}

/** Whether the contract already has a capability: false marks one a report added that a person has not adopted. */
function inContract(c: CapabilityEntity, contract: ContractEntity | null): boolean {
  if (!contract) return false;
  if (c.kind === 'section') return contract.sectionTypes.includes(c.name);
  if (c.kind === 'block') return contract.blockTypes.includes(c.name);
  return contract.fields.some((f) => f.key === c.name);
}

export class CapabilityView extends CapabilityRefView {
  @ApiProperty({ enum: ['receiver', 'plugin'] }) lastSource!: string;
  @ApiProperty({ description: 'The contract has it; false for a capability recorded but not adopted (PUT …/contract adopts it)' }) inContract!: boolean;
  @ApiProperty({ format: 'date-time' }) firstReportedAt!: string;
  @ApiProperty({ format: 'date-time' }) lastReportedAt!: string;

  static of(c: CapabilityEntity, contract: ContractEntity | null): CapabilityView {
    return {
      kind: c.kind, name: c.name, lastSource: c.lastSource, inContract: inContract(c, contract),
      firstReportedAt: c.firstReportedAt.toISOString(), lastReportedAt: c.lastReportedAt.toISOString(),
    };
  }
}

export class ReportView {
  @ApiProperty({ enum: ['receiver', 'plugin'] }) source!: string;
  @ApiProperty({ format: 'date-time' }) firstReportedAt!: string;
  @ApiProperty({ format: 'date-time' }) reportedAt!: string;
  @ApiProperty({ type: [String], description: 'As reported; with blockTypes and fields, the body to adopt them with PUT …/contract' }) sectionTypes!: string[];
  @ApiProperty({ type: [String] }) blockTypes!: string[];
  @ApiProperty({ type: [ReportedFieldDto] }) fields!: ReportedFieldDto[];

  static of(r: TargetReportEntity): ReportView {
    return {
      source: r.source, firstReportedAt: r.firstReportedAt.toISOString(), reportedAt: r.reportedAt.toISOString(),
      sectionTypes: r.sectionTypes, blockTypes: r.blockTypes, fields: r.fields,
    };
  }
}

export class GoalContractView {
  @ApiProperty({ type: ContractView, nullable: true, description: 'Null until the first receiver report or a manual contract' }) contract!: ContractView | null;
  @ApiProperty({ type: [CapabilityView], description: 'Everything any report named, with first and last report time and whether the contract has it' }) capabilities!: CapabilityView[];
  @ApiProperty({ type: [ReportView], description: 'The latest report of each source' }) reports!: ReportView[];
}

export class ReportOutcomeView {
  @ApiProperty({ enum: ['receiver', 'plugin'] }) source!: 'receiver' | 'plugin';
  @ApiProperty({ description: 'This report established the contract (first receiver report of a goal without one)' }) contractEstablished!: boolean;
  @ApiProperty({ type: [CapabilityRefView], description: 'Capabilities no earlier report of this goal named' }) newCapabilities!: CapabilityRefView[];
  @ApiProperty({ description: "The report's fields are now the goal's receiver fields: only when it established the contract" }) appliedFields!: boolean;
}
