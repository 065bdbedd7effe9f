import { ApiProperty } from '../../openapi/api-docs';
import { IsFieldValueMap } from '../../http/validators';
import type { FieldValue } from '@owd/payload';

export class SetFieldValuesDto {
  @ApiProperty({
    type: 'object', additionalProperties: true, example: { desk: 'Economy', regions: ['eu'] },
    description: "Per-result receiver field values (replacing the previous ones), checked against the goal's contract fields; null clears a value",
  })
  @IsFieldValueMap()
  values!: Record<string, FieldValue>;
}
