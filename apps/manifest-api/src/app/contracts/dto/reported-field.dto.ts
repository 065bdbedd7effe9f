import { ApiProperty, ApiPropertyOptional } from '../../openapi/api-docs';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { FIELD_TYPES } from '@owd/events';

export class FieldOptionDto {
  @ApiProperty({ example: 'eco' }) @IsString() @MaxLength(200) value!: string;
  @ApiProperty({ example: 'Economy' }) @IsString() @MaxLength(200) label!: string;
}

/** A receiver-defined field (§2.4). Shapes are checked here (400); the field rules in field-rules.ts (422). */
export class ReportedFieldDto {
  @ApiProperty({ example: 'desk', pattern: '^[a-z0-9_]{1,40}$', description: 'Unique in the report' }) @IsString() key!: string;
  @ApiProperty({ example: 'Desk' }) @IsString() @MaxLength(200) label!: string;
  @ApiProperty({ enum: FIELD_TYPES }) @IsString() type!: string;
  @ApiPropertyOptional({ default: false, description: 'A result with this field empty is not sent (Needs approval)' })
  @IsOptional() @IsBoolean() required?: boolean;
  @ApiPropertyOptional({ default: false, description: 'Only with type enum' }) @IsOptional() @IsBoolean() multiple?: boolean;
  @ApiPropertyOptional({ type: [FieldOptionDto], description: 'Required for type enum; only for enum' })
  @IsOptional() @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => FieldOptionDto)
  options?: FieldOptionDto[];
}
