import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Agent } from 'undici';
import { checkTarget, createGuardedAgent, type AddressResolver } from '@owd/address-guard';
import { refusedAttempt, sendAttempt, type AttemptResult } from '@owd/http-delivery';
import { SecretBox } from '@owd/secret-box';
import { buildDeliveryHeaders } from '@owd/signer';
import { ADDRESS_RESOLVER } from './address-resolver';
import { describeTarget } from './attempt-span';
import { CLOCK, type Clock } from './clock';
import { DELIVERY_SETTINGS, type DeliverySettings } from './delivery.settings';
import type { GoalSettings, StoredDelivery } from './attempt-input';

/** Names the goal of a test-mode delivery at the development sink (it receives every goal's). */
export const DEV_SINK_GOAL_HEADER = 'X-SH-Goal';

/** Why an attempt ended without a request (dispatcher-side reasons; HTTP ones come from @owd/http-delivery). */
export const NOT_SENT = {
  DEV_SINK_UNAVAILABLE: 'dev_sink_unavailable',
  GOAL_DELETED: 'goal_deleted',
  GOAL_UNKNOWN: 'goal_unknown',
  NO_RECIPIENT: 'no_recipient',
  SECRET_UNREADABLE: 'secret_unreadable',
  CORRUPT_PAYLOAD: 'corrupt_payload',
  INVALID_REQUEST: 'invalid_request',
  ABANDONED: 'abandoned',
} as const;

/** A permanent failure decided before any byte was sent. */
export function notSent(targetHost: string, errorClass: string, errorMessage: string): AttemptResult {
  return {
    status: null, headers: {}, body: '', bodyBytes: Buffer.alloc(0), bodyTruncated: false, durationMs: 0, outcome: 'permanent',
    errorClass, errorMessage, conflictRevision: null, targetHost, refusedRule: null,
  };
}

function hostOf(url: string | null): string {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return '';
  }
}

/**
 * Makes one attempt of a delivery with the goal's settings as they are now: the receiver (production)
 * through the guarded agent, or the development sink (test mode), which is operator configuration
 * and so goes through a plain agent. The secret is opened here and lives only for this call.
 */
@Injectable()
export class AttemptSender implements OnApplicationShutdown {
  private readonly logger = new Logger(AttemptSender.name);
  private readonly receivers: Agent;
  private readonly sink: Agent;

  constructor(
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly secretBox: SecretBox,
    @Inject(ADDRESS_RESOLVER) private readonly resolver: AddressResolver,
  ) {
    // One keep-alive pool per origin lives inside each agent; the worker already caps attempts per origin.
    const pool = { connections: settings.perOriginMax, headersTimeout: settings.attemptTimeoutMs, bodyTimeout: settings.attemptTimeoutMs };
    this.receivers = createGuardedAgent(settings.policy, {
      ...pool, connect: { timeout: Math.min(10_000, settings.attemptTimeoutMs), baseLookup: resolver.lookup },
    });
    this.sink = new Agent({ ...pool, connect: { timeout: Math.min(10_000, settings.attemptTimeoutMs) } });
  }

  async send(delivery: StoredDelivery, goal: GoalSettings): Promise<AttemptResult> {
    const target = await this.target(goal);
    if ('result' in target) return target.result;
    describeTarget(target.url);
    if (createHash('sha256').update(delivery.body).digest('hex') !== delivery.bodySha256) {
      return notSent(hostOf(target.url), NOT_SENT.CORRUPT_PAYLOAD, 'the stored payload does not match its SHA-256; not sent');
    }
    let secret: string | null = null;
    if (goal.secretCiphertext) {
      try {
        secret = this.secretBox.open(goal.secretCiphertext, goal.goalId);
      } catch {
        return notSent(hostOf(target.url), NOT_SENT.SECRET_UNREADABLE, "the goal's secret could not be decrypted (check SECRET_ENCRYPTION_KEY)");
      }
    }
    let headers: Record<string, string>;
    try {
      // A fresh timestamp and signature per attempt; the body bytes and X-SH-Delivery never change.
      headers = buildDeliveryHeaders({
        resultId: delivery.resultId,
        deliveryId: delivery.deliveryId,
        timestamp: Math.floor(this.clock.now().getTime() / 1000),
        rawBody: delivery.body,
        secret,
      });
    } catch (err) {
      return notSent(hostOf(target.url), NOT_SENT.INVALID_REQUEST, (err as Error).message);
    }
    if (target.devSink) headers[DEV_SINK_GOAL_HEADER] = goal.goalId;
    return sendAttempt({
      url: target.url,
      body: delivery.body,
      headers,
      dispatcher: target.devSink ? this.sink : this.receivers,
      timeoutMs: this.settings.attemptTimeoutMs,
      maxResponseBytes: this.settings.maxResponseBytes,
    });
  }

  private async target(goal: GoalSettings): Promise<{ url: string; devSink: boolean } | { result: AttemptResult }> {
    if (goal.deleted) return { result: notSent(hostOf(goal.recipientUrl), NOT_SENT.GOAL_DELETED, 'the goal was deleted') };
    if (goal.deliveryMode === 'test') {
      // Test mode protects the real destination: never send there (spec §1).
      const sink = this.settings.devSinkUrl;
      if (!sink) return { result: notSent('', NOT_SENT.DEV_SINK_UNAVAILABLE, 'development sink unavailable') };
      return { url: sink, devSink: true };
    }
    const url = goal.recipientUrl;
    if (!url) return { result: notSent('', NOT_SENT.NO_RECIPIENT, 'the goal has no recipient URL') };
    // Checked before sending so a refusal carries its rule; the guarded agent checks again on connect.
    const check = await checkTarget(url, this.settings.policy, { lookup: this.resolver.resolveAll });
    if (!check.ok && check.rule !== 'dns-failure') {
      this.logger.warn({ msg: 'recipient address refused', goalId: goal.goalId, rule: check.rule });
      return { result: refusedAttempt(url, check.rule, check.reason) };
    }
    return { url, devSink: false };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.receivers.close(), this.sink.close()]);
  }
}
