import { ApiProperty, ApiPropertyOptional } from '../openapi/api-docs';

export class SentRequestView {
  @ApiProperty() url!: string;
  @ApiProperty({ description: 'Headers as sent; Authorization is shown as "Bearer [secret]"', type: 'object', additionalProperties: { type: 'string' } })
  headers!: Record<string, string>;
  @ApiProperty({ description: 'The exact JSON body that was sent (a sample payload v5)' }) body!: string;
}

export class ReceivedResponseView {
  @ApiProperty() status!: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) headers!: Record<string, string | string[]>;
  @ApiProperty({ description: 'At most 64 KiB of the answer' }) body!: string;
  @ApiProperty() truncated!: boolean;
}

/** What a Send test did: what was sent and what came back, or exactly why nothing was sent. */
export class SendTestReportView {
  @ApiProperty({ enum: ['delivered', 'retriable', 'permanent', 'conflict', 'refused'] }) outcome!: string;
  @ApiProperty({ description: 'True when a request reached the receiver' }) sent!: boolean;
  @ApiPropertyOptional({ type: SentRequestView, nullable: true }) request!: SentRequestView | null;
  @ApiPropertyOptional({ type: ReceivedResponseView, nullable: true }) response!: ReceivedResponseView | null;
  @ApiProperty() durationMs!: number;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'timeout' }) errorClass!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) errorMessage!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Address-restriction rule that refused the target' }) rule!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The address the rule refused' }) address!: string | null;
  @ApiProperty({ description: 'True when this test verified the saved recipient URL with the saved secret (Send immediately may be switched on); a failed test of the saved URL clears its verification' })
  verified!: boolean;
}
