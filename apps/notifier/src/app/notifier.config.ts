import { Transform } from 'class-transformer';
import { IsEmail, IsInt, IsString, IsUrl, Max, Min, MinLength, ValidateBy } from 'class-validator';
import { BaseServiceConfig, envInt } from '@owd/platform';
import { parseNoticeSchedule } from './notices/notice-schedule';


/** Longest a whole send can take: each attempt may wait out the connect, greeting and socket timeouts, plus the backoff. */
export function worstCaseSendMs(c: Pick<NotifierConfig, 'SMTP_MAX_ATTEMPTS' | 'SMTP_TIMEOUT_MS' | 'SMTP_RETRY_BASE_MS'>): number {
  let backoff = 0;
  for (let retry = 1; retry < c.SMTP_MAX_ATTEMPTS; retry++) backoff += Math.min(c.SMTP_RETRY_BASE_MS * 2 ** (retry - 1), 60_000);
  return c.SMTP_MAX_ATTEMPTS * 3 * c.SMTP_TIMEOUT_MS + backoff;
}

/** notifier settings (docs/notifier.md lists every variable). */
export class NotifierConfig extends BaseServiceConfig {
  override PORT = 3004;

  /** smtp:// or smtps:// URL of the mail relay, credentials included; never logged. */
  @IsUrl({ protocols: ['smtp', 'smtps'], require_protocol: true, require_tld: false }, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL!: string;

  /** Sender address of the weekly notice; its domain also names the Message-ID. */
  @IsEmail({ require_tld: false }, { message: 'NOTICE_FROM must be an e-mail address' })
  NOTICE_FROM!: string;

  @IsString() @MinLength(1)
  NOTICE_FROM_NAME = 'Outbound webhooks';

  /** `MON 08:00` (weekday and time, UTC), `every 6h` (an interval of at most 7 days) or `off`. */
  @ValidateBy({
    name: 'isNoticeSchedule',
    validator: { validate: (value: unknown) => typeof value === 'string' && parseNoticeSchedule(value) !== undefined },
  }, { message: 'NOTICE_SCHEDULE must be "<MON..SUN> <HH:MM>" (UTC), "every <n><s|m|h|d>" (at most 7d) or "off"' })
  NOTICE_SCHEDULE = 'MON 08:00';

  @Transform(envInt) @IsInt() @Min(1) @Max(365)
  STALE_REPORT_AFTER_DAYS = 7;

  /** Sends of one notice within a run (first try included) before it is left for a later run. */
  @Transform(envInt) @IsInt() @Min(1) @Max(10)
  SMTP_MAX_ATTEMPTS = 3;

  /** First retry delay; doubles per retry, capped at one minute. */
  @Transform(envInt) @IsInt() @Min(1) @Max(60_000)
  SMTP_RETRY_BASE_MS = 2_000;

  /** Connect, greeting and idle-socket timeout of one SMTP conversation. */
  @Transform(envInt) @IsInt() @Min(1_000) @Max(120_000)
  SMTP_TIMEOUT_MS = 30_000;

  /** How long a claimed notice belongs to the instance sending it; must exceed a whole send with retries. */
  @Transform(envInt) @IsInt() @Min(60) @Max(86_400)
  @ValidateBy({
    name: 'leaseCoversSend',
    validator: { validate: (value: unknown, args) => typeof value === 'number' && value * 1000 > worstCaseSendMs(args?.object as NotifierConfig) },
  }, { message: 'NOTICE_LEASE_SECONDS must be longer than a whole send with retries (SMTP_MAX_ATTEMPTS x 3 x SMTP_TIMEOUT_MS plus backoff)' })
  NOTICE_LEASE_SECONDS = 900;
}
