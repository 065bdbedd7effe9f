import { createHash } from 'node:crypto';
import { ApiProperty } from '../openapi/api-docs';
import type { DevSinkRequestEntity } from './dev-sink-request.entity';

export class DevSinkRequestView {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'POST' }) method!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Lower-case names; authorization redacted' })
  headers!: Record<string, string>;
  @ApiProperty({ description: 'The raw body as UTF-8 text' }) body!: string;
  @ApiProperty({ description: 'SHA-256 (hex) of the raw body bytes' }) bodySha256!: string;
  @ApiProperty({ format: 'date-time' }) receivedAt!: string;

  static of(r: DevSinkRequestEntity): DevSinkRequestView {
    return {
      id: r.id, method: r.method, headers: r.headers, body: r.body.toString('utf8'),
      bodySha256: createHash('sha256').update(r.body).digest('hex'), receivedAt: r.receivedAt.toISOString(),
    };
  }
}

export class DevSinkReceiptView {
  @ApiProperty() received!: boolean;
  @ApiProperty() id!: string;
}
