// class-transformer's @Type reads design metadata through the Reflect API.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsNotEmpty, IsObject, IsString, ValidateNested } from 'class-validator';
import { BASELINE_SECTION_TYPE } from '../payload.constants';
import { Block } from '../types/block.types';
import { Section } from '../types/section.types';
import { BLOCK_DISCRIMINATOR, UnknownBlockDto } from './block.dto';
import { OptionalKey } from './validators/optional-key';
import { PresenceRules } from './validators/presence-rules.validator';

export class SectionDto implements Section {
  @IsString() @IsNotEmpty() key!: string;

  // Only a fallback section carries `fallback_of`, and a fallback section is always the baseline type.
  @IsString()
  @IsNotEmpty()
  @PresenceRules((s) =>
    s['fallback_of'] !== undefined && s['type'] !== BASELINE_SECTION_TYPE ? [`a fallback section has type ${BASELINE_SECTION_TYPE}`] : [],
  )
  type!: string;

  @OptionalKey() @IsString() @IsNotEmpty() fallback_of?: string;

  @IsArray()
  @ArrayNotEmpty()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => UnknownBlockDto, { discriminator: BLOCK_DISCRIMINATOR, keepDiscriminatorProperty: true })
  blocks!: Block[];
}
