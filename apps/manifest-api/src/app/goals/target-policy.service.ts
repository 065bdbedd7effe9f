import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Agent } from 'undici';
import {
  checkTarget, createGuardedAgent, parseAllowCidrs, type AddressPolicy, type AddressResolver, type GuardedAgentOptions, type TargetCheck,
} from '@owd/address-guard';
import { problems } from '../http/problem';
import type { ManifestApiConfig } from '../manifest-api.config';
import { targetPolicyMetrics } from './target-policy.metrics';
import { ADDRESS_RESOLVER } from './address-resolver';

/** The address restriction at save time (§1, docs/address-restriction.md), with the operator's ALLOWED_TARGET_CIDRS. */
@Injectable()
export class TargetPolicyService {
  private readonly policy: AddressPolicy;

  constructor(config: ConfigService<ManifestApiConfig, true>, @Inject(ADDRESS_RESOLVER) private readonly resolver: AddressResolver) {
    this.policy = { allowCidrs: parseAllowCidrs(config.get('ALLOWED_TARGET_CIDRS', { infer: true })) };
  }

  check(url: string): Promise<TargetCheck> {
    return checkTarget(url, this.policy, { lookup: this.resolver.resolveAll });
  }

  /** An agent whose every connection is checked again against the same policy and resolver (Send test). */
  createAgent(options: Omit<GuardedAgentOptions, 'connect'> = {}): Agent {
    return createGuardedAgent(this.policy, { ...options, connect: { baseLookup: this.resolver.lookup } });
  }

  /** 422 naming the rule and the resolved address when the URL may not be a delivery target. */
  async assertAllowed(url: string, field = 'recipientUrl'): Promise<void> {
    const verdict = await this.check(url);
    if (verdict.ok) return;
    targetPolicyMetrics.refused.inc({ rule: verdict.rule, action: 'save' });
    throw problems.unprocessable('address-refused', 'Recipient address refused', verdict.reason,
      [{ field, message: verdict.reason }], { rule: verdict.rule, address: verdict.address ?? null });
  }
}
