import { ApiProperty } from '@nestjs/swagger';
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

export class CapabilityView extends CapabilityRefView {
  @ApiProperty({ enum: ['receiver', 'plugin'] }) lastSource!: string;
  @ApiProperty({ format: 'date-time' }) firstReportedAt!: string;
  @ApiProperty({ format: 'date-time' }) lastReportedAt!: string;

  static of(c: CapabilityEntity): CapabilityView {
    return { kind: c.kind, name: c.name, lastSource: c.lastSource, firstReportedAt: c.firstReportedAt.toISOString(), lastReportedAt: c.lastReportedAt.toISOString() };
  }
}

export class ReportView {
  @ApiProperty({ enum: ['receiver', 'plugin'] }) source!: string;
  @ApiProperty({ format: 'date-time' }) firstReportedAt!: string;
  @ApiProperty({ format: 'date-time' }) reportedAt!: string;

  static of(r: TargetReportEntity): ReportView {
    return { source: r.source, firstReportedAt: r.firstReportedAt.toISOString(), reportedAt: r.reportedAt.toISOString() };
  }
}

export class GoalContractView {
  @ApiProperty({ type: ContractView, nullable: true, description: 'Null until the first receiver report or a manual contract' }) contract!: ContractView | null;
  @ApiProperty({ type: [CapabilityView], description: 'Everything any report named, with first and last report time' }) capabilities!: CapabilityView[];
  @ApiProperty({ type: [ReportView] }) reports!: ReportView[];
}

export class ReportOutcomeView {
  @ApiProperty({ enum: ['receiver', 'plugin'] }) source!: 'receiver' | 'plugin';
  @ApiProperty({ description: 'This report established the contract (first receiver report of a goal without one)' }) contractEstablished!: boolean;
  @ApiProperty({ type: [CapabilityRefView], description: 'Capabilities no earlier report of this goal named' }) newCapabilities!: CapabilityRefView[];
  @ApiProperty({ description: "The report's fields are now the goal's receiver fields (receiver source, contract not set by hand)" }) appliedFields!: boolean;
}
