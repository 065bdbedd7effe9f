import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { BaseServiceConfig, envInt } from '@owd/platform';


/** payload-builder settings (docs/operations.md lists every variable). */
export class PayloadBuilderConfig extends BaseServiceConfig {
  override PORT = 3001;

  /** How many times one result is re-sent after a 409 before it is rejected (spec §3, §7). */
  @Transform(envInt) @IsInt() @Min(0) @Max(100)
  MAX_CONFLICT_RESENDS = 3;
}
