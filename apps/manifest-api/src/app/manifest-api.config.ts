import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Max, Min, MinLength, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { parseAllowCidrs } from '@owd/address-guard';
import { BaseServiceConfig, envBool, envInt } from '@owd/platform';
import { parseEncryptionKey } from '@owd/secret-box';


@ValidatorConstraint({ name: 'encryptionKey' })
class IsEncryptionKey implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    try {
      parseEncryptionKey(typeof value === 'string' ? value : undefined);
      return true;
    } catch {
      return false;
    }
  }
  defaultMessage(): string {
    return 'SECRET_ENCRYPTION_KEY must be 32 bytes, base64-encoded';
  }
}

@ValidatorConstraint({ name: 'allowCidrs' })
class IsAllowCidrList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    try {
      parseAllowCidrs(typeof value === 'string' ? value : '');
      return true;
    } catch {
      return false;
    }
  }
  defaultMessage(): string {
    return 'ALLOWED_TARGET_CIDRS must be a comma-separated list of IPv4/IPv6 CIDRs';
  }
}

/** manifest-api settings (docs/api.md lists the API-specific ones). */
export class ManifestApiConfig extends BaseServiceConfig {
  override PORT = 3000;

  /** Bootstrap token that manages workspaces and their API tokens. */
  @IsString() @MinLength(32, { message: 'ADMIN_TOKEN must be at least 32 characters' })
  ADMIN_TOKEN!: string;

  /** Seals goal secrets at rest and in goal.changed (AES-256-GCM). */
  @Validate(IsEncryptionKey)
  SECRET_ENCRYPTION_KEY!: string;

  /** Operator exceptions to the address restriction, e.g. `10.0.0.0/8` for a private deployment. */
  @IsString() @Validate(IsAllowCidrList)
  ALLOWED_TARGET_CIDRS = '';

  /** Requests per minute per API token (in-memory token bucket, per replica). */
  @Transform(envInt) @IsInt() @Min(1) @Max(1_000_000)
  RATE_LIMIT_PER_MINUTE = 600;

  /** Time limit of one Send test request, headers and body together (§8). */
  @Transform(envInt) @IsInt() @Min(100) @Max(120_000)
  ATTEMPT_TIMEOUT_MS = 30_000;

  /** Development sink for Send test / Test mode; never on in hosted production (§1). */
  @Transform(envBool) @IsBoolean()
  DEV_SINK_ENABLED = false;
}
