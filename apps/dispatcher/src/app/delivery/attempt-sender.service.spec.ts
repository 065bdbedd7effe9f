import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { SYSTEM_RESOLVER } from '@owd/address-guard';
import { SecretBox } from '@owd/secret-box';
import { ADDRESS_RESOLVER } from './address-resolver';
import { AttemptSender } from './attempt-sender.service';
import { CLOCK } from './clock';
import type { GoalSettings, StoredDelivery } from './attempt-input';
import { DELIVERY_SETTINGS, type DeliverySettings } from './delivery.settings';

const settings: DeliverySettings = {
  policy: { allowCidrs: [] }, attemptTimeoutMs: 1_000, retryDelaysMs: [60_000, 300_000], concurrency: 4, perOrigin: 2, perOriginMax: 4,
  pollMs: 100, devSinkUrl: null, maxResponseBytes: 1024, leaseMs: 31_000, goalWaitMs: 1_000, workerId: 'spec',
};

function delivery(body = Buffer.from('{"payload_version":5}')): StoredDelivery {
  return {
    deliveryId: randomUUID(), resultId: 'res_1', goalId: randomUUID(), revision: 1, body,
    bodySha256: createHash('sha256').update(body).digest('hex'), correlationId: 'c', createdAt: new Date(), goalVersion: 1,
  };
}

function goal(overrides: Partial<GoalSettings> = {}): GoalSettings {
  return { goalId: randomUUID(), version: 1, deleted: false, recipientUrl: 'https://hooks.example/in', deliveryMode: 'production', secretCiphertext: null, workspaceId: null, ...overrides };
}

/** Every case here ends before a request is made, so no network (and no DNS) is involved. */
describe('AttemptSender decisions made before sending', () => {
  let sender: AttemptSender;
  const box = new SecretBox(randomBytes(32));

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      providers: [
        AttemptSender,
        { provide: DELIVERY_SETTINGS, useValue: settings },
        { provide: CLOCK, useValue: { now: () => new Date('2026-11-21T10:00:00Z') } },
        { provide: SecretBox, useValue: box },
        { provide: ADDRESS_RESOLVER, useValue: SYSTEM_RESOLVER },
      ],
    }).compile();
    sender = module.get(AttemptSender);
  });

  afterAll(() => sender.onApplicationShutdown());

  it('fails a test-mode delivery when there is no development sink, without touching the real URL', async () => {
    expect(await sender.send(delivery(), goal({ deliveryMode: 'test' }))).toMatchObject({
      outcome: 'permanent', errorClass: 'dev_sink_unavailable', errorMessage: 'development sink unavailable', status: null, targetHost: '',
    });
  });

  it('fails a delivery of a deleted goal', async () => {
    expect(await sender.send(delivery(), goal({ deleted: true }))).toMatchObject({ outcome: 'permanent', errorClass: 'goal_deleted' });
  });

  it('fails a production delivery without a recipient URL', async () => {
    expect(await sender.send(delivery(), goal({ recipientUrl: null }))).toMatchObject({ outcome: 'permanent', errorClass: 'no_recipient' });
  });

  it('refuses a metadata address before sending, with the rule in the message', async () => {
    const result = await sender.send(delivery(), goal({ recipientUrl: 'http://169.254.169.254/latest/meta-data/' }));
    expect(result).toMatchObject({ outcome: 'refused', errorClass: 'address_refused', refusedRule: 'cloud-metadata', targetHost: '169.254.169.254' });
    expect(result.errorMessage).toMatch(/^address refused by rule cloud-metadata: /);
  });

  it.each([
    ['a private address', 'http://10.1.2.3/in', 'private'],
    ['a URL with credentials', 'https://user:pw@hooks.example/in', 'url-credentials'],
    ['another scheme', 'ftp://hooks.example/in', 'unsupported-scheme'],
  ])('refuses %s', async (_name, url, rule) => {
    expect(await sender.send(delivery(), goal({ recipientUrl: url }))).toMatchObject({ outcome: 'refused', refusedRule: rule });
  });

});

/** With a sink configured but unreachable (port 9 on loopback): these cases must end before connecting. */
describe('AttemptSender integrity and secret checks', () => {
  let sender: AttemptSender;
  const box = new SecretBox(randomBytes(32));

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      providers: [
        AttemptSender,
        { provide: DELIVERY_SETTINGS, useValue: { ...settings, devSinkUrl: 'http://127.0.0.1:9/sink' } },
        { provide: CLOCK, useValue: { now: () => new Date() } },
        { provide: SecretBox, useValue: box },
        { provide: ADDRESS_RESOLVER, useValue: SYSTEM_RESOLVER },
      ],
    }).compile();
    sender = module.get(AttemptSender);
  });

  afterAll(() => sender.onApplicationShutdown());

  it('refuses to send bytes that no longer match their SHA-256', async () => {
    const d = { ...delivery(), body: Buffer.from('{"tampered":true}') };
    expect(await sender.send(d, goal({ deliveryMode: 'test' }))).toMatchObject({
      outcome: 'permanent', errorClass: 'corrupt_payload', targetHost: '127.0.0.1:9',
    });
  });

  it('fails when the sealed secret cannot be opened for this goal, and never shows the secret', async () => {
    const result = await sender.send(delivery(), goal({ deliveryMode: 'test', secretCiphertext: box.seal('s3cret', 'another-goal') }));
    expect(result).toMatchObject({ outcome: 'permanent', errorClass: 'secret_unreadable' });
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });
});
