import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import { sendAttempt } from '@owd/http-delivery';
import { buildPayload } from '@owd/payload';
import { buildDeliveryHeaders } from '@owd/signer';
import type { GoalEntity } from '../goals/goal.entity';
import { GoalSecretService } from '../goals/goal-secret.service';
import { GoalStore } from '../goals/goal-store.service';
import { GoalsService } from '../goals/goals.service';
import { targetPolicyMetrics } from '../goals/target-policy.metrics';
import { TargetPolicyService } from '../goals/target-policy.service';
import { problems } from '../http/problem';
import type { ManifestApiConfig } from '../manifest-api.config';
import { sampleInput } from './sample-result';
import type { SendTestReportView } from './send-test.views';

/**
 * Send test (§1): one sample event over the same route as a real delivery — address restriction at save
 * and at connect time, signer, §2.1 headers, 30 s limit, no redirects — to the saved or a typed URL,
 * whatever the delivery mode. A 2xx from the saved URL verifies it with the saved secret (Send immediately may then
 * be switched on); a failure of the saved URL clears that verification.
 */
@Injectable()
export class SendTestService implements OnApplicationShutdown {
  private agent?: Agent;
  private readonly timeoutMs: number;

  constructor(
    private readonly goals: GoalsService,
    private readonly store: GoalStore,
    private readonly secrets: GoalSecretService,
    private readonly targets: TargetPolicyService,
    config: ConfigService<ManifestApiConfig, true>,
  ) {
    this.timeoutMs = config.get('ATTEMPT_TIMEOUT_MS', { infer: true });
  }

  async send(workspaceId: string, goalId: string, typedUrl: string | undefined, now = new Date()): Promise<SendTestReportView> {
    const goal = await this.store.find(workspaceId, goalId);
    const url = typedUrl ?? goal.recipientUrl;
    if (!url) throw problems.unprocessable('no-recipient-url', 'No recipient URL', 'Save a recipient URL or pass `url` to test one.', [{ field: 'url', message: 'required when the goal has no recipient URL' }]);

    const verdict = await this.targets.check(url);
    if (!verdict.ok) {
      targetPolicyMetrics.refused.inc({ rule: verdict.rule, action: 'send_test' });
      await this.record(workspaceId, goal, url, false);
      return { outcome: 'refused', sent: false, request: null, response: null, durationMs: 0, errorClass: 'address_refused',
        errorMessage: verdict.reason, rule: verdict.rule, address: verdict.address ?? null, verified: false };
    }
    const resultId = `test_${randomUUID()}`;
    const { body } = buildPayload(sampleInput(resultId, goal, now));
    const secret = this.secrets.reveal(goal);
    const headers = buildDeliveryHeaders({ resultId, deliveryId: randomUUID(), timestamp: Math.floor(now.getTime() / 1000), rawBody: body, secret });
    const attempt = await sendAttempt({ url, body, headers, dispatcher: this.testAgent(), timeoutMs: this.timeoutMs });
    if (attempt.refusedRule) targetPolicyMetrics.refused.inc({ rule: attempt.refusedRule, action: 'send_test' });

    const verified = await this.record(workspaceId, goal, url, attempt.outcome === 'delivered');
    const shown = { ...headers };
    if (shown['Authorization']) shown['Authorization'] = 'Bearer [secret]';
    return {
      outcome: attempt.outcome,
      sent: attempt.status !== null,
      request: { url, headers: shown, body: body.toString('utf8') },
      response: attempt.status === null ? null
        : { status: attempt.status, headers: attempt.headers, body: attempt.body, truncated: attempt.bodyTruncated },
      durationMs: attempt.durationMs,
      errorClass: attempt.errorClass,
      errorMessage: attempt.errorMessage,
      rule: attempt.refusedRule,
      address: null,
      verified,
    };
  }

  /** Only a test of the saved URL counts: a 2xx verifies it with the secret it was signed with, a failure un-verifies it. */
  private async record(workspaceId: string, goal: GoalEntity, url: string, delivered: boolean): Promise<boolean> {
    if (url !== goal.recipientUrl) return false;
    if (delivered) return this.goals.markVerified(goal.id, url, goal.secretSealed);
    await this.goals.clearVerification(workspaceId, goal.id, url);
    return false;
  }

  /** The Send tests' agent, made by the first one (and undici loaded with it: docs/performance.md, "A pod's memory"). */
  private testAgent(): Agent {
    return (this.agent ??= this.targets.createAgent({ keepAliveTimeout: 1_000 }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent?.close();
  }
}
