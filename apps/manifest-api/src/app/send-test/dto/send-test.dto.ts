import { ApiPropertyOptional } from '../../openapi/api-docs';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class SendTestDto {
  @ApiPropertyOptional({ description: 'A URL to try that is not saved yet; the saved recipient URL when absent', maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;
}
