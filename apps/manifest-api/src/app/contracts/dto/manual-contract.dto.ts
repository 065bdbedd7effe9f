import { ApiPropertyOptional } from '../../openapi/api-docs';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CapabilityList } from './capability-lists';
import { ReportedFieldDto } from './reported-field.dto';

/** Body of PUT /api/goals/{id}/contract: a contract set by hand (origin manual); receiver reports never change it. */
export class ManualContractDto {
  @CapabilityList('Section types to send natively; others arrive as content sections with fallback_of', ['content', 'faq'])
  sectionTypes?: string[];

  @CapabilityList('Block types to send natively; others arrive as paragraph fallbacks', ['paragraph', 'heading'])
  blockTypes?: string[];

  @ApiPropertyOptional({ type: [ReportedFieldDto], default: [] })
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => ReportedFieldDto)
  fields?: ReportedFieldDto[];
}
