import { ApiPropertyOptional } from '../../openapi/api-docs';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { CapabilityList } from './capability-lists';
import { ReportedFieldDto } from './reported-field.dto';

/** Body of PUT /api/goals/{id}/target-manifest: the receiver capability report (§2.4, §4.2). */
export class TargetManifestDto {
  @ApiPropertyOptional({ example: 'receiver', description: 'Must be `receiver` for the fields to apply to an HTTP address goal; anything else (or none) is a plugin report' })
  @IsOptional() @IsString() @MaxLength(40)
  source?: string;

  @ApiPropertyOptional({ type: [ReportedFieldDto], default: [] })
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => ReportedFieldDto)
  fields?: ReportedFieldDto[];

  @CapabilityList('Section types the receiver renders natively', ['content', 'faq'])
  sections?: string[];

  @CapabilityList('Block types the receiver renders natively', ['paragraph', 'heading', 'list'])
  blocks?: string[];
}
