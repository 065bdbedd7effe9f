import { ApiProperty, ApiPropertyOptional } from './api-docs';

export class FieldErrorDto {
  @ApiProperty({ example: 'fields[2].options', description: 'Path of the offending value in the request' })
  field!: string;

  @ApiProperty({ example: 'options are required when type is enum' })
  message!: string;
}

/** RFC 9457 problem details, the body of every error response. */
export class ProblemDto {
  @ApiProperty({ example: 'https://owd.dev/problems/validation-error', format: 'uri' })
  type!: string;

  @ApiProperty({ example: 'Invalid request' })
  title!: string;

  @ApiProperty({ example: 400 })
  status!: number;

  @ApiProperty({ example: 'The request body or parameters are invalid.' })
  detail!: string;

  @ApiPropertyOptional({ example: '/api/goals', description: 'Path of the request' })
  instance?: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Field-level reasons (validation and rule errors)' })
  errors?: FieldErrorDto[];

  @ApiPropertyOptional({ example: 'loopback', description: 'address-refused: the address restriction rule that refused the URL' })
  rule?: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '127.0.0.1', description: 'address-refused: the resolved address' })
  address?: string | null;

  @ApiPropertyOptional({ example: 'delivered', description: 'not-approvable / not-retryable: the current state of the result' })
  state?: string;

  @ApiPropertyOptional({ example: 2, description: 'workspace-not-empty: how many goals the workspace still has' })
  goals?: number;
}
