import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { BaseServiceConfig } from '@owd/platform';

const toInt = ({ value }: { value: unknown }) => (value === undefined ? value : Number(value));

/** payload-builder settings (docs/operations.md lists every variable). */
export class PayloadBuilderConfig extends BaseServiceConfig {
  override PORT = 3001;

  /** How many times one result is re-sent after a 409 before it is rejected (spec §3, §7). */
  @Transform(toInt) @IsInt() @Min(0) @Max(100)
  MAX_CONFLICT_RESENDS = 3;
}
