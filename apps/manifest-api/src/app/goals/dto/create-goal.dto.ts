import { ApiProperty, ApiPropertyOptional } from '../../openapi/api-docs';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { IsAsciiEmail, PUBLISH_POLICIES, type PublishPolicy } from '@owd/events';
import { LANGUAGE_CODE_PATTERN, type FieldValue } from '@owd/payload';
import { IsFieldValueMap, OptionalNotNull } from '../../http/validators';
import { CHANNELS, type Channel } from '../goal.entity';

const LANGUAGE_MESSAGE = { message: '$property must be a language code such as en or pt-BR' };

/** A new goal; it always starts in Test mode with Send immediately off (§1). Null clears a nullable setting. */
export class CreateGoalDto {
  @ApiProperty({ example: 'Economy desk', minLength: 1, maxLength: 200 })
  @IsString() @Length(1, 200) @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({ example: 'en', description: 'Language code of the source language' })
  @IsString() @Matches(LANGUAGE_CODE_PATTERN, LANGUAGE_MESSAGE)
  sourceLang!: string;

  @ApiPropertyOptional({ enum: CHANNELS, description: 'The only channel: http_address (the default)' })
  @OptionalNotNull() @IsIn(CHANNELS)
  channel?: Channel;

  @ApiPropertyOptional({
    type: String, nullable: true, example: 'https://cms.example.com/hooks/owd',
    description: 'Must be publicly routable (checked on save, 422 otherwise). Changing it clears the Send test verification.',
  })
  @IsOptional() @IsString() @MaxLength(2048)
  recipientUrl?: string | null;

  @ApiPropertyOptional({ description: 'Second language version switch (off for a new goal); needs secondLanguage' })
  @OptionalNotNull() @IsBoolean()
  secondLanguageEnabled?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'uk' })
  @IsOptional() @IsString() @Matches(LANGUAGE_CODE_PATTERN, LANGUAGE_MESSAGE)
  secondLanguage?: string | null;

  @ApiPropertyOptional({ enum: PUBLISH_POLICIES, nullable: true, description: 'Sent as publish_mode; null sends none' })
  @IsOptional() @IsIn(PUBLISH_POLICIES)
  publishPolicy?: PublishPolicy | null;

  @ApiPropertyOptional({
    type: 'object', additionalProperties: true, example: { desk: 'Economy' },
    description: "Default receiver field values; checked against the goal's contract fields once it has a contract",
  })
  @OptionalNotNull() @IsFieldValueMap()
  fieldDefaults?: Record<string, FieldValue>;

  @ApiPropertyOptional({ type: String, format: 'email', nullable: true, maxLength: 320, example: 'desk@example.com', description: 'Receives the weekly contract notice; an ASCII address (internationalised addresses are refused)' })
  @IsOptional() @IsAsciiEmail() @MaxLength(320)
  ownerEmail?: string | null;
}
