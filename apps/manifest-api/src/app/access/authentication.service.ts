import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { problems } from '../http/problem';
import type { ManifestApiConfig } from '../manifest-api.config';
import { CLOCK, type Clock } from '../util/clock';
import type { Principal } from './principal';
import { TokenBucketLimiter } from './token-bucket';
import { DigestedSecret, tokenDigest } from './token-codec';
import { TokensService } from './tokens.service';

/**
 * Who is calling, and whether their token still has requests left this minute. A singleton, so the
 * guard instances of every feature module share one bucket per token.
 */
@Injectable()
export class AuthenticationService {
  private readonly adminToken: DigestedSecret;
  private readonly limiter: TokenBucketLimiter;

  constructor(private readonly tokens: TokensService, config: ConfigService<ManifestApiConfig, true>, @Inject(CLOCK) clock: Clock) {
    this.adminToken = new DigestedSecret(config.get('ADMIN_TOKEN', { infer: true }));
    this.limiter = new TokenBucketLimiter(config.get('RATE_LIMIT_PER_MINUTE', { infer: true }), () => clock.now().getTime());
  }

  async identify(token: string | undefined): Promise<Principal> {
    if (!token) throw problems.unauthorized('Send an API token as `Authorization: Bearer <token>`.');
    // One digest per request: compared with the admin token's (hashed once) and looked up as a workspace token's.
    const digest = tokenDigest(token);
    if (this.adminToken.matches(digest)) return { kind: 'admin' };
    const found = await this.tokens.authenticate(token, digest.toString('hex'));
    // One answer for unknown and revoked tokens: the difference is nobody else's business.
    if (!found) throw problems.unauthorized('The API token is unknown or has been revoked.');
    return { kind: 'workspace', ...found };
  }

  /** Throws 429 with Retry-After once the token's bucket is empty. */
  spend(principal: Principal): void {
    const { allowed, retryAfterSeconds } = this.limiter.take(principal.kind === 'admin' ? 'admin' : principal.tokenId);
    if (!allowed) throw problems.tooManyRequests(retryAfterSeconds);
  }
}
