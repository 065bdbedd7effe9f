import { Transform } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsInt, IsString, IsUrl, Max, Min, ValidateBy, ValidateIf, type ValidationOptions,
} from 'class-validator';
import { parseAllowCidrs } from '@owd/address-guard';
import { DEFAULT_RETRY_DELAYS_MS } from '@owd/events';
import { BaseServiceConfig, envInt } from '@owd/platform';
import { parseEncryptionKey } from '@owd/secret-box';

const toIntList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean).map(Number) : value;

/** True when `check` does not throw; the value itself never reaches the message (it may be a secret). */
function Parses(check: (value: string) => unknown, message: string, options?: ValidationOptions) {
  return ValidateBy({
    name: 'parses',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        try {
          check(value);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: () => message,
    },
  }, options);
}

/** A number no smaller than the setting `other` of the same configuration. */
function AtLeast(other: string, options?: ValidationOptions) {
  return ValidateBy({
    name: 'atLeast',
    constraints: [other],
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value >= Number((args?.object as Record<string, unknown>)[other]),
      defaultMessage: (args) => `${args?.property} must be at least ${other}`,
    },
  }, options);
}

/** dispatcher settings (docs/delivery.md lists them with their defaults). */
export class DispatcherConfig extends BaseServiceConfig {
  override PORT = 3002;

  /** Operator exceptions to the address restriction (docs/address-restriction.md); empty = public internet only. */
  @IsString()
  @Parses(parseAllowCidrs, 'ALLOWED_TARGET_CIDRS must be a comma-separated list of IP addresses or CIDRs (a.b.c.d/n, ::1/128)')
  ALLOWED_TARGET_CIDRS = '';

  /** Whole attempt (connect, headers and body) in milliseconds; spec §8 says 30 s. */
  @Transform(envInt) @IsInt() @Min(100) @Max(300_000)
  ATTEMPT_TIMEOUT_MS = 30_000;

  /** Delay before attempt 2 and before attempt 3, counted from the end of the failed attempt. */
  @Transform(toIntList)
  @ArrayMinSize(2, { message: 'RETRY_DELAYS_MS must list exactly two delays (before attempt 2 and attempt 3)' })
  @ArrayMaxSize(2, { message: 'RETRY_DELAYS_MS must list exactly two delays (before attempt 2 and attempt 3)' })
  @IsInt({ each: true }) @Min(0, { each: true })
  RETRY_DELAYS_MS: number[] = [...DEFAULT_RETRY_DELAYS_MS];

  /** Attempts in flight in this process, all receivers together. */
  @Transform(envInt) @IsInt() @Min(1) @Max(1024)
  DISPATCH_CONCURRENCY = 64;

  /** Attempts in flight in this process to one origin (scheme://host:port) to begin with, and for a failing or slow one. */
  @Transform(envInt) @IsInt() @Min(1) @Max(256)
  DISPATCH_PER_ORIGIN = 8;

  /** Most attempts in flight in this process to one origin answering 2xx quickly (equal to DISPATCH_PER_ORIGIN: fixed). */
  @Transform(envInt) @IsInt() @Max(256)
  @AtLeast('DISPATCH_PER_ORIGIN')
  DISPATCH_PER_ORIGIN_MAX = 32;

  /** How often an idle worker looks for due attempts. */
  @Transform(envInt) @IsInt() @Min(10) @Max(60_000)
  DISPATCH_POLL_MS = 200;

  /** Development sink for goals in test mode; empty where there is none (hosted production). */
  @ValidateIf((c: DispatcherConfig) => c.DEV_SINK_URL !== '')
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'DEV_SINK_URL must be empty or an http(s) URL' })
  DEV_SINK_URL = '';

  /** Opens the goals' sealed receiver secrets (the same key as manifest-api's). */
  @Parses(parseEncryptionKey, 'SECRET_ENCRYPTION_KEY must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)')
  SECRET_ENCRYPTION_KEY!: string;
}
