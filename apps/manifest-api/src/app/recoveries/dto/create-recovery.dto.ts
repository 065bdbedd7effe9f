import { ApiProperty, ApiPropertyOptional } from '../../openapi/api-docs';
import { IsDateString, IsOptional, IsString, IsUUID, Matches } from 'class-validator';

/** Which failed deliveries a recovery retries: every one of the workspace (or of a goal) that failed since a time. */
export class CreateRecoveryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only failures of this goal; without it, every goal of the workspace' })
  @IsOptional() @IsUUID()
  goalId?: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T00:00:00Z', description: 'Retry deliveries that failed at or after this time' })
  @IsDateString({ strict: true })
  since!: string;

  @ApiPropertyOptional({ example: 'server_error', description: 'Only failures of this error class' })
  @IsOptional() @IsString() @Matches(/^[a-z_]{1,64}$/, { message: 'errorClass must be a lower-case error class such as server_error' })
  errorClass?: string;
}
