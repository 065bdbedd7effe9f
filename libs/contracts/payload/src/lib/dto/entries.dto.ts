import { IsInt, IsNumber, IsString, MaxLength, Min } from 'class-validator';
import { SEO_DESCRIPTION_MAX_CHARS } from '../payload.constants';
import { LocaleEntry, StepEntry } from '../types/payload.types';

/** Entry of `locales` (§2.2). */
export class LocaleEntryDto implements LocaleEntry {
  @IsString() title!: string;
  @IsString() slug!: string;
  @IsString() lead!: string;
  @IsString() body!: string;
  @IsString() @MaxLength(SEO_DESCRIPTION_MAX_CHARS) seo_description!: string;
  @IsString() body_html!: string;
}

/** Entry of `steps` (§2.2). */
export class StepEntryDto implements StepEntry {
  @IsString() text!: string;
  @IsString() model!: string;
  @IsInt() @Min(0) tokens!: number;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) cost!: number;
}
