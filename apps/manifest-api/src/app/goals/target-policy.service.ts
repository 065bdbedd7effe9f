import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { checkTarget, parseAllowCidrs, type AddressPolicy, type TargetCheck } from '@owd/address-guard';
import { problems } from '../http/problem';
import type { ManifestApiConfig } from '../manifest-api.config';

/** The address restriction at save time (§1, docs/address-restriction.md), with the operator's ALLOWED_TARGET_CIDRS. */
@Injectable()
export class TargetPolicyService {
  private readonly policy: AddressPolicy;

  constructor(config: ConfigService<ManifestApiConfig, true>) {
    this.policy = { allowCidrs: parseAllowCidrs(config.get('ALLOWED_TARGET_CIDRS', { infer: true })) };
  }

  check(url: string): Promise<TargetCheck> {
    return checkTarget(url, this.policy);
  }

  /** 422 naming the rule and the resolved address when the URL may not be a delivery target. */
  async assertAllowed(url: string, field = 'recipientUrl'): Promise<void> {
    const verdict = await this.check(url);
    if (verdict.ok) return;
    throw problems.unprocessable('address-refused', 'Recipient address refused', verdict.reason,
      [{ field, message: verdict.reason }], { rule: verdict.rule, address: verdict.address ?? null });
  }
}
