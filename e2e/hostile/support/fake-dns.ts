import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressResolver, ResolveAll } from '@owd/address-guard';

export interface DnsQuery {
  hostname: string;
  /** `check`: a checkTarget (save, Send test, pre-send); `connect`: the lookup of a guarded connection. */
  via: 'check' | 'connect';
  answer: string[];
}

/**
 * An attacker's DNS server, shared by the services under test: each name answers from a sequence
 * (query n gets answer n, the last one repeating), which is how a rebinding server behaves.
 * Unknown names fail with ENOTFOUND; nothing here ever asks real DNS.
 */
export class FakeDns implements AddressResolver {
  readonly queries: DnsQuery[] = [];
  private readonly zone = new Map<string, { answers: string[][]; asked: number }>();

  /** (Re)defines a name and restarts its sequence. */
  answer(hostname: string, ...answers: string[][]): void {
    this.zone.set(hostname, { answers, asked: 0 });
  }

  queriesOf(hostname: string): Array<Omit<DnsQuery, 'hostname'>> {
    return this.queries.filter((q) => q.hostname === hostname).map(({ via, answer }) => ({ via, answer }));
  }

  readonly resolveAll: ResolveAll = async (hostname) => this.resolve(hostname, 'check');

  readonly lookup: LookupFunction = (hostname, options, callback) => {
    let answers: LookupAddress[];
    try {
      answers = this.resolve(hostname, 'connect');
    } catch (error: unknown) {
      process.nextTick(() => callback(error as NodeJS.ErrnoException, ''));
      return;
    }
    process.nextTick(() => (options.all ? callback(null, answers) : callback(null, answers[0].address, answers[0].family)));
  };

  private resolve(hostname: string, via: DnsQuery['via']): LookupAddress[] {
    const entry = this.zone.get(hostname);
    if (!entry) {
      this.queries.push({ hostname, via, answer: [] });
      throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    const answer = entry.answers[Math.min(entry.asked, entry.answers.length - 1)];
    entry.asked += 1;
    this.queries.push({ hostname, via, answer });
    return answer.map((address) => ({ address, family: isIP(address) }));
  }
}
