import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { fakeDns } from '../testing/fake-dns';
import { AddressRefusedError } from './errors';
import { createGuardedLookup } from './guarded-lookup';
import { EMPTY_POLICY, type AddressPolicy } from './policy';

interface LookupOutcome {
  readonly error: NodeJS.ErrnoException | null;
  readonly address: string | LookupAddress[];
  readonly family?: number;
}

function run(lookup: LookupFunction, hostname: string, options: LookupOptions): Promise<LookupOutcome> {
  return new Promise((resolve) => lookup(hostname, options, (error, address, family) => resolve({ error, address, family })));
}

describe('createGuardedLookup', () => {
  const dns = fakeDns({
    'receiver.example': [['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']],
    'mixed.example': [['93.184.216.34', '127.0.0.1']],
    'loopback.example': [['127.0.0.1']],
    'imds.example': [['169.254.169.254']],
    'empty.example': [[]],
  });
  const guarded = (policy: AddressPolicy = EMPTY_POLICY): LookupFunction => createGuardedLookup(policy, dns.lookup);

  it('answers a single-address query like dns.lookup', async () => {
    await expect(run(guarded(), 'receiver.example', { family: 0 })).resolves.toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('answers an all-addresses query (net autoSelectFamily) with every address', async () => {
    await expect(run(guarded(), 'receiver.example', { all: true })).resolves.toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ],
      family: undefined,
    });
  });

  it.each([
    ['loopback.example', 'loopback', '127.0.0.1'],
    ['mixed.example', 'loopback', '127.0.0.1'],
    ['imds.example', 'cloud-metadata', '169.254.169.254'],
  ])('fails %s with AddressRefusedError (%s)', async (hostname, rule, address) => {
    for (const options of [{}, { all: true }]) {
      const { error } = await run(guarded(), hostname, options);
      expect(error).toBeInstanceOf(AddressRefusedError);
      expect(error).toMatchObject({ rule, address, hostname, code: 'ERR_ADDRESS_REFUSED' });
    }
  });

  it('refuses localhost and metadata names without resolving them', async () => {
    const resolver = jest.fn<void, Parameters<LookupFunction>>();
    const lookup = createGuardedLookup(EMPTY_POLICY, resolver);
    await expect(run(lookup, 'LOCALHOST.', {})).resolves.toMatchObject({ error: { rule: 'loopback' } });
    await expect(run(lookup, 'metadata.google.internal', {})).resolves.toMatchObject({
      error: { rule: 'cloud-metadata', hostname: 'metadata.google.internal', address: undefined },
    });
    expect(resolver).not.toHaveBeenCalled();
  });

  it('passes an allowed CIDR through', async () => {
    await expect(run(guarded({ allowCidrs: ['127.0.0.0/8'] }), 'loopback.example', {})).resolves.toEqual({
      error: null,
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('passes resolver errors through unchanged', async () => {
    const { error } = await run(guarded(), 'nowhere.example', {});
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
    expect(error).not.toBeInstanceOf(AddressRefusedError);
  });

  it('fails an empty answer as ENOTFOUND', async () => {
    await expect(run(guarded(), 'empty.example', { all: true })).resolves.toMatchObject({
      error: { code: 'ENOTFOUND' },
    });
  });

  it('copes with a base lookup that ignores all: true', async () => {
    const single: LookupFunction = (_hostname, _options, callback) => callback(null, '10.1.1.1', 4);
    const { error } = await run(createGuardedLookup(EMPTY_POLICY, single), 'legacy.example', { all: true });
    expect(error).toMatchObject({ rule: 'private', address: '10.1.1.1' });
  });
});
