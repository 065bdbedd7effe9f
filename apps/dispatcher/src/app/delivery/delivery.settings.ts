import { randomUUID } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { parseAllowCidrs, type AddressPolicy } from '@owd/address-guard';
import { RESPONSE_PREVIEW_BYTES } from '@owd/http-delivery';

/** The dispatcher's delivery settings, read once from the validated configuration. */
export interface DeliverySettings {
  policy: AddressPolicy;
  attemptTimeoutMs: number;
  retryDelaysMs: readonly number[];
  concurrency: number;
  /** Requests in flight per origin to begin with, and all a failing or slow receiver gets (OriginLimiter). */
  perOrigin: number;
  /** Most requests in flight per origin, reached by a receiver answering 2xx quickly. */
  perOriginMax: number;
  pollMs: number;
  devSinkUrl: string | null;
  maxResponseBytes: number;
  /** A claimed attempt whose worker is silent this long is claimed again (crash safety). */
  leaseMs: number;
  /** How long an attempt waits for the goal's settings to arrive before it fails. */
  goalWaitMs: number;
  /** Identifies this process in claimed work rows (for operators; ownership is by claim token). */
  workerId: string;
}

export const DELIVERY_SETTINGS = Symbol('DELIVERY_SETTINGS');

export function deliverySettingsFrom(config: ConfigService): DeliverySettings {
  const attemptTimeoutMs = config.getOrThrow<number>('ATTEMPT_TIMEOUT_MS');
  const devSink = config.get<string>('DEV_SINK_URL') ?? '';
  return {
    policy: { allowCidrs: parseAllowCidrs(config.get<string>('ALLOWED_TARGET_CIDRS')) },
    attemptTimeoutMs,
    retryDelaysMs: config.getOrThrow<number[]>('RETRY_DELAYS_MS'),
    concurrency: config.getOrThrow<number>('DISPATCH_CONCURRENCY'),
    perOrigin: config.getOrThrow<number>('DISPATCH_PER_ORIGIN'),
    perOriginMax: config.getOrThrow<number>('DISPATCH_PER_ORIGIN_MAX'),
    pollMs: config.getOrThrow<number>('DISPATCH_POLL_MS'),
    devSinkUrl: devSink === '' ? null : devSink,
    // The attempt record keeps the first 4 KiB; reading stops there and the rest of the body is dropped.
    maxResponseBytes: RESPONSE_PREVIEW_BYTES,
    // Long enough that a live worker always finishes (the attempt is bounded by its timeout) first.
    leaseMs: attemptTimeoutMs + 30_000,
    goalWaitMs: 5 * 60_000,
    workerId: `${process.pid}-${randomUUID().slice(0, 8)}`,
  };
}
