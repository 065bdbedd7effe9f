import { createHash, randomUUID } from 'node:crypto';
import {
  DeliveryAttempted, DeliveryRequested, GoalChanged, TOPICS, type DeliveryAttemptedPayload, type GoalChangedPayload,
} from '@owd/events';
import { startReceiver, TopicReader, waitFor, type TestReceiver } from '@owd/testing';
import { createWorkspace, startSystem, type HostileSystem, type HttpAnswer } from './support/system';
import { Witness } from './support/witness';

const PROBLEM = 'https://owd.dev/problems/';
/** A public address the fake DNS hands out for "safe" answers; nothing ever connects to it. */
const PUBLIC = '93.184.215.14';
const LOOPBACK = '127.0.0.1';

/**
 * Every spelling of an internal target we know of, with the rule that must refuse it. `DECOY` is the port of a
 * server on 127.0.0.1 that counts requests, so a spelling that slipped through would be seen arriving there.
 * The services run with an empty ALLOWED_TARGET_CIDRS, so loopback is refused like any internal range.
 */
const SPELLINGS: Array<[attack: string, url: string, rule: string]> = [
  ['loopback as one decimal number', 'http://2130706433:DECOY/', 'loopback'],
  ['loopback as one hex number', 'http://0x7f000001:DECOY/', 'loopback'],
  ['loopback as one octal number', 'http://017700000001:DECOY/', 'loopback'],
  ['loopback with a hex first part (short form)', 'http://0x7f.1:DECOY/', 'loopback'],
  ['loopback with hex parts', 'http://0x7f.0x0.0x0.0x1:DECOY/', 'loopback'],
  ['loopback with an octal first part', 'http://0177.0.0.1:DECOY/', 'loopback'],
  ['loopback short form 127.1', 'http://127.1:DECOY/', 'loopback'],
  ['loopback percent-encoded', 'http://%31%32%37.0.0.1:DECOY/', 'loopback'],
  ['loopback with full-width dots', 'http://127\u30020\u30020\u30021:DECOY/', 'loopback'],
  ['loopback behind a backslash', 'http://127.0.0.1\\@example.com:DECOY/', 'loopback'],
  ['localhost', 'http://localhost:DECOY/', 'loopback'],
  ['localhost in capitals with a trailing dot', 'http://LOCALHOST.:DECOY/', 'loopback'],
  ['a name under .localhost', 'http://api.localhost:DECOY/', 'loopback'],
  ['IPv6 loopback', 'http://[::1]:DECOY/', 'loopback'],
  ['IPv4-mapped loopback, dotted', 'http://[::ffff:127.0.0.1]:DECOY/', 'ipv4-mapped'],
  ['IPv4-mapped loopback, hex', 'http://[::ffff:7f00:1]:DECOY/', 'ipv4-mapped'],
  ['IPv4-mapped loopback, long form', 'http://[0:0:0:0:0:ffff:127.0.0.1]:DECOY/', 'ipv4-mapped'],
  ['IPv4-translated loopback', 'http://[::ffff:0:7f00:1]:DECOY/', 'ipv4-translated'],
  ['IPv4-compatible loopback', 'http://[::127.0.0.1]:DECOY/', 'ipv4-compatible'],
  ['NAT64 of loopback', 'http://[64:ff9b::7f00:1]:DECOY/', 'nat64'],
  ['6to4 of loopback', 'http://[2002:7f00:1::]:DECOY/', '6to4'],
  ['user-info before loopback', 'http://evil@127.0.0.1:DECOY/', 'url-credentials'],
  ['a public name as user-info before loopback', 'http://example.com@127.0.0.1:DECOY/', 'url-credentials'],
  ['unspecified 0.0.0.0', 'http://0.0.0.0:DECOY/', 'unspecified'],
  ['unspecified as 0', 'http://0:DECOY/', 'unspecified'],
  ['IPv6 unspecified', 'http://[::]:DECOY/', 'unspecified'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', 'cloud-metadata'],
  ['cloud metadata with a trailing dot', 'http://169.254.169.254./latest/meta-data/', 'cloud-metadata'],
  ['cloud metadata behind user:pass', 'http://user:pass@169.254.169.254/', 'url-credentials'],
  ['cloud metadata as NAT64', 'http://[64:ff9b::a9fe:a9fe]/', 'cloud-metadata'],
  ['cloud metadata as 6to4', 'http://[2002:a9fe:a9fe::]/', 'cloud-metadata'],
  ['cloud metadata IPv4-mapped', 'http://[::ffff:169.254.169.254]/', 'cloud-metadata'],
  ['cloud metadata by name', 'http://metadata.google.internal/computeMetadata/v1/', 'cloud-metadata'],
  ['AWS IPv6 metadata', 'http://[fd00:ec2::254]/', 'cloud-metadata'],
  ['shared address space 100.64/10', 'http://100.64.0.1/', 'shared-address'],
  ['shared address space, top', 'http://100.127.255.254/', 'shared-address'],
  ['private 10/8', 'http://10.0.0.1/', 'private'],
  ['private 172.16/12', 'http://172.16.0.1/', 'private'],
  ['private 172.16/12, top', 'http://172.31.255.254/', 'private'],
  ['private 192.168/16', 'http://192.168.0.1/', 'private'],
  ['link-local 169.254/16', 'http://169.254.1.1/', 'link-local'],
  ['IPv6 link-local fe80::', 'http://[fe80::1]/', 'link-local'],
  ['IPv6 link-local with a zone id', 'http://[fe80::1%25eth0]/', 'invalid-url'],
  ['unique-local fc00::/7', 'http://[fc00::1]/', 'unique-local'],
  ['unique-local fd00::/8', 'http://[fd12:3456::1]/', 'unique-local'],
  ['multicast', 'http://224.0.0.1/', 'multicast'],
  ['IPv6 multicast', 'http://[ff02::1]/', 'multicast'],
  ['limited broadcast', 'http://255.255.255.255/', 'broadcast'],
  ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'teredo'],
  ['a file: URL', 'file:///etc/passwd', 'unsupported-scheme'],
  ['a gopher: URL to loopback', 'gopher://127.0.0.1:DECOY/', 'unsupported-scheme'],
  ['a name answering one public and one loopback address', 'http://mixed-loopback.attacker.test:DECOY/', 'loopback'],
  ['a name answering one public and one private address', 'http://mixed-private.attacker.test/', 'private'],
  ['a name answering a public and the IPv6 loopback address', 'http://mixed-v6.attacker.test:DECOY/', 'loopback'],
  ['a name answering the metadata address', 'http://metadata-alias.attacker.test/', 'cloud-metadata'],
  ['a name that does not resolve', 'http://nxdomain.attacker.test/', 'dns-failure'],
];

describe('hostile input: the address restriction on every route that takes a URL', () => {
  let system: HostileSystem;
  let decoy: TestReceiver;
  let witness: Witness;
  let reader: TopicReader;
  let token: string;
  let goalId: string;
  const publishedGoals = new Set<string>();

  beforeAll(async () => {
    decoy = await startReceiver();
    system = await startSystem({ dispatcher: true });
    const { dns } = system;
    dns.answer('hooks.receiver.test', [PUBLIC]);
    dns.answer('mixed-loopback.attacker.test', [PUBLIC, LOOPBACK]);
    dns.answer('mixed-private.attacker.test', [PUBLIC, '10.0.0.7']);
    dns.answer('mixed-v6.attacker.test', [PUBLIC, '::1']);
    dns.answer('metadata-alias.attacker.test', ['169.254.169.254']);
    reader = await new TopicReader(system.brokers, system.prefix,
      [TOPICS.GOAL_CHANGED, TOPICS.RESULT_REVISED, TOPICS.RESULT_WORKFLOW, TOPICS.CONTRACT_CHANGED, TOPICS.CAPABILITY_REPORTED, TOPICS.DELIVERY_ATTEMPTED]).start();
    witness = new Witness(system.db, 'manifest_api', [decoy]);
    ({ token } = await createWorkspace(system, 'Attacked'));
    const goal = await system.request('POST', '/api/goals', { token, body: { name: 'Desk', sourceLang: 'en', recipientUrl: 'https://hooks.receiver.test/in' } });
    expect(goal.status).toBe(201);
    goalId = goal.body.id;
    publishedGoals.add(goalId);
  });

  afterAll(async () => {
    await reader?.stop();
    await system?.close();
    await decoy?.close();
  });

  function expectAddressRefused(res: HttpAnswer, rule: string): void {
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `${PROBLEM}address-refused`, status: 422, rule, errors: [{ field: 'recipientUrl', message: res.body.detail }] });
  }

  const at = (url: string) => url.replace('DECOY', String(decoy.port));

  it('has a decoy that counts what reaches it (so zero means nothing arrived)', async () => {
    expect((await fetch(`${decoy.url}/probe`, { method: 'POST' })).status).toBe(204);
    expect(decoy.requests.map((r) => r.path)).toEqual(['/probe']);
    decoy.requests.length = 0;
  });

  it('accepts and stores a public recipient URL, which the witness sees (the refusals below are about the address only)', async () => {
    const before = await witness.snapshot();
    const res = await system.request('POST', '/api/goals', { token, body: { name: 'Control', sourceLang: 'en', recipientUrl: 'https://hooks.receiver.test/control' } });
    expect(res.status).toBe(201);
    publishedGoals.add(res.body.id);
    const after = await witness.snapshot();
    expect(after.tables['goals']).not.toBe(before.tables['goals']);
    expect(after.tables['outbox']).not.toBe(before.tables['outbox']);
  });

  describe('goal create (POST /api/goals)', () => {
    it.each(SPELLINGS)('refuses %s (%s) with 422 rule %s, storing nothing', async (_attack, url, rule) => {
      const res = await witness.expectNoTrace(() =>
        system.request('POST', '/api/goals', { token, body: { name: 'Evil', sourceLang: 'en', recipientUrl: at(url) } }));
      expectAddressRefused(res, rule);
    });
  });

  describe('goal update (PATCH /api/goals/{id} recipientUrl)', () => {
    it.each(SPELLINGS)('refuses %s (%s) with 422 rule %s, leaving the goal as it was', async (_attack, url, rule) => {
      const res = await witness.expectNoTrace(() => system.request('PATCH', `/api/goals/${goalId}`, { token, body: { recipientUrl: at(url) } }));
      expectAddressRefused(res, rule);
    });
  });

  describe('Send test to a typed URL (POST /api/goals/{id}/send-test)', () => {
    // Send test answers 200 with a report whatever the outcome (docs/api.md); the refusal is in the report.
    it.each(SPELLINGS)('refuses %s (%s) with rule %s and sends nothing', async (_attack, url, rule) => {
      const res = await witness.expectNoTrace(() => system.request('POST', `/api/goals/${goalId}/send-test`, { token, body: { url: at(url) } }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ outcome: 'refused', sent: false, request: null, response: null, errorClass: 'address_refused', rule, verified: false });
    });

    it.each([
      ['public to the check and loopback to the connection', [[PUBLIC], [LOOPBACK]]],
      ['public to the check and public plus loopback to the connection', [[PUBLIC], [PUBLIC, LOOPBACK]]],
    ])('refuses at connect time a name that answers %s, and nothing reaches the decoy', async (_how, answers) => {
      const host = `rebind-${randomUUID().slice(0, 8)}.attacker.test`;
      system.dns.answer(host, ...answers);
      const res = await witness.expectNoTrace(() =>
        system.request('POST', `/api/goals/${goalId}/send-test`, { token, body: { url: `http://${host}:${decoy.port}/hook` } }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ outcome: 'refused', sent: false, response: null, errorClass: 'address_refused', rule: 'loopback', verified: false });
      expect(system.dns.queriesOf(host)).toEqual([{ via: 'check', answer: answers[0] }, { via: 'connect', answer: answers[1] }]);
    });
  });

  it('published no event for any refused request: the goals above have exactly the versions their accepted saves made', async () => {
    const marker = await system.request('POST', '/api/goals', { token, body: { name: 'Marker', sourceLang: 'en' } });
    expect(marker.status).toBe(201);
    publishedGoals.add(marker.body.id);
    // The relay publishes in outbox order: by the time every accepted save (the marker last) has been read,
    // an event of a refused request, had there been one, would have been published before the marker.
    const seen = () => new Set(reader.all<GoalChangedPayload>(GoalChanged.type).map((e) => e.payload.goalId));
    await waitFor(() => [...publishedGoals].every((id) => seen().has(id)), { what: 'goal.changed of every accepted save' });
    const goalEvents = reader.all<GoalChangedPayload>(GoalChanged.type);
    expect(seen()).toEqual(publishedGoals);
    expect(goalEvents.map((e) => e.payload.version)).toEqual(goalEvents.map(() => 1));
    expect(reader.messages.filter((m) => m.topic !== TOPICS.GOAL_CHANGED)).toEqual([]);
    expect(decoy.requests).toEqual([]);
  });

  describe('DNS rebinding between save and send (the dispatcher connects through the guard)', () => {
    /** A production goal saved while its name answered a public address, and known to the dispatcher. */
    async function savedWhilePublic(host: string): Promise<string> {
      system.dns.answer(host, [PUBLIC]);
      const created = await system.request('POST', '/api/goals', { token, body: { name: 'Rebound', sourceLang: 'en', recipientUrl: `http://${host}:${decoy.port}/hook` } });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      expect((await system.request('PUT', `/api/goals/${id}/secret`, { token, body: { secret: 'whsec_hostile_0123456789' } })).status).toBe(200);
      expect((await system.request('PATCH', `/api/goals/${id}`, { token, body: { deliveryMode: 'production' } })).status).toBe(200);
      await waitFor(async () => {
        const { rows } = await system.db.query(`SELECT 1 FROM dispatcher.goals WHERE goal_id = $1 AND delivery_mode = 'production' AND secret_ciphertext IS NOT NULL`, [id]);
        return rows.length === 1;
      }, { what: `the dispatcher to hold goal ${id} in production`, timeoutMs: 20_000 });
      return id;
    }

    /** What payload-builder would publish for an approved result of the goal. */
    async function requestDelivery(id: string): Promise<string> {
      const body = Buffer.from(JSON.stringify({ payload_version: 5, result_id: 'res_rebind', text: 'internal data must not leak' }));
      const deliveryId = randomUUID();
      await system.emit(DeliveryRequested, {
        deliveryId, resultId: `res_${randomUUID()}`, goalId: id, revision: 1, bodyBase64: body.toString('base64'),
        bodySha256: createHash('sha256').update(body).digest('hex'), executedAt: new Date().toISOString(), reason: 'first',
      });
      return deliveryId;
    }

    it.each([
      ['answers loopback by the time the dispatcher checks it', [[LOOPBACK]], ['check']],
      ['answers public to the dispatcher\'s check and loopback to its connection', [[PUBLIC], [LOOPBACK]], ['check', 'connect']],
      ['answers public to the check and public plus loopback to the connection', [[PUBLIC], [PUBLIC, LOOPBACK]], ['check', 'connect']],
    ])('a name public at save that %s is refused, recorded as a refused attempt, and never reached', async (_how, answers, asked) => {
      const host = `rebind-${randomUUID().slice(0, 8)}.attacker.test`;
      const id = await savedWhilePublic(host);
      system.dns.answer(host, ...answers);
      const deliveryId = await requestDelivery(id);

      const attempt = (await reader.waitFor<DeliveryAttemptedPayload>(DeliveryAttempted.type, (p) => p.deliveryId === deliveryId)).payload;
      expect(attempt).toMatchObject({ attempt: 1, outcome: 'refused', errorClass: 'address_refused', status: null, final: true, nextAttemptAt: null });
      expect(attempt.errorMessage).toMatch(/^address refused by rule loopback: /);
      const { rows } = await system.db.query(`SELECT outcome, error_class, status FROM dispatcher.attempts WHERE delivery_id = $1`, [deliveryId]);
      expect(rows).toEqual([{ outcome: 'refused', error_class: 'address_refused', status: null }]);
      expect(system.dns.queriesOf(host)).toEqual([
        { via: 'check', answer: [PUBLIC] }, // manifest-api, on save
        ...asked.map((via, i) => ({ via, answer: answers[i] })),
      ]);
      expect(decoy.requests).toEqual([]);
    });
  });
});
