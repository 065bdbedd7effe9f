import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '../../openapi/api-docs';
import { ArrayMaxSize, IsArray, IsOptional, Matches } from 'class-validator';

/** Section and block type names: `content`, `key_points`, `paragraph`, … */
export const CAPABILITY_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;

export const CapabilityList = (description: string, example: string[]) => applyDecorators(
  ApiPropertyOptional({ type: [String], default: [], example, description }),
  IsOptional(), IsArray(), ArrayMaxSize(200),
  Matches(CAPABILITY_NAME_PATTERN, { each: true, message: `each of $property must match ${CAPABILITY_NAME_PATTERN.source}` }),
);
