import { ApiPropertyOptional } from '../../openapi/api-docs';
import { Type } from 'class-transformer';
import { IsDateString, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';

/** Filters of the failed-deliveries view; `cursor` continues a page (opaque, from `nextCursor`). */
export class FailedDeliveriesQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only failures of this goal' })
  @IsOptional() @IsUUID()
  goalId?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-21T00:00:00Z', description: 'Only deliveries that failed at or after this time' })
  @IsOptional() @IsDateString({ strict: true })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only deliveries that failed before this time' })
  @IsOptional() @IsDateString({ strict: true })
  until?: string;

  @ApiPropertyOptional({ example: 'client_error', description: 'Only failures of this error class (see docs/delivery.md)' })
  @IsOptional() @IsString() @Matches(/^[a-z_]{1,64}$/, { message: 'errorClass must be a lower-case error class such as client_error' })
  errorClass?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page' })
  @IsOptional() @IsString() @MaxLength(200)
  cursor?: string;
}
