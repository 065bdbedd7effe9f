import { TOPICS, type CapabilityReportedPayload, type ContractChangedPayload, CapabilityReported, ContractChanged } from '@owd/events';
import { TopicReader, waitFor } from '@owd/testing';
import { createWorkspace, startTestApp, type TestApp } from './support/test-app';

const DESK = { key: 'desk', label: 'Desk', type: 'text', required: true };
const CATEGORY = { key: 'category', label: 'Category', type: 'enum', options: [{ value: 'eco', label: 'Economy' }] };
const REGION = { key: 'region', label: 'Region', type: 'text', required: true };

describe('manifest-api capability reports and contracts', () => {
  let t: TestApp;
  let reader: TopicReader;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    reader = await new TopicReader(t.brokers, t.prefix, [TOPICS.CONTRACT_CHANGED, TOPICS.CAPABILITY_REPORTED]).start();
    ({ token } = await createWorkspace(t));
  });

  afterAll(async () => {
    await reader?.stop();
    await t?.close();
  });

  const newGoal = async () => (await t.request('POST', '/api/goals', { token, body: { name: 'Receiver', sourceLang: 'en' } })).body.id as string;
  const report = (goalId: string, body: Record<string, unknown>) => t.request('PUT', `/api/goals/${goalId}/target-manifest`, { token, body });
  const contractOf = async (goalId: string) => (await t.request('GET', `/api/goals/${goalId}/contract`, { token })).body;
  const changes = (goalId: string) => reader.all<ContractChangedPayload>(ContractChanged.type, (p) => p.goalId === goalId);

  it('establishes the contract from the first receiver report of a goal without one, and publishes contract.changed', async () => {
    const goalId = await newGoal();
    const res = await report(goalId, { source: 'receiver', fields: [DESK], sections: ['content', 'faq'], blocks: ['paragraph', 'heading'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      source: 'receiver', contractEstablished: true, appliedFields: true,
      newCapabilities: [{ kind: 'section', name: 'content' }, { kind: 'section', name: 'faq' }, { kind: 'block', name: 'paragraph' }, { kind: 'block', name: 'heading' }, { kind: 'field', name: 'desk' }],
    });
    const event = await reader.waitFor<ContractChangedPayload>(ContractChanged.type, (p) => p.goalId === goalId);
    expect(event.payload).toMatchObject({ version: 1, origin: 'receiver', sectionTypes: ['content', 'faq'], blockTypes: ['paragraph', 'heading'], fields: [{ ...DESK, multiple: false }] });
    expect((await contractOf(goalId)).contract).toMatchObject({ origin: 'receiver', version: 1, sectionTypes: ['content', 'faq'] });
  });

  it('only records a later report: the contract stays as established, the report and its new capabilities show with first and last seen', async () => {
    const goalId = await newGoal();
    await report(goalId, { source: 'receiver', fields: [CATEGORY], sections: ['content'], blocks: ['paragraph'] });
    const later = await report(goalId, { source: 'receiver', fields: [CATEGORY, REGION], sections: ['content', 'timeline'], blocks: ['paragraph'] });
    expect(later.body).toEqual({ source: 'receiver', contractEstablished: false, appliedFields: false, newCapabilities: [{ kind: 'section', name: 'timeline' }, { kind: 'field', name: 'region' }] });

    const { contract, capabilities, reports } = await contractOf(goalId);
    expect(contract).toMatchObject({ origin: 'receiver', version: 1, sectionTypes: ['content'], blockTypes: ['paragraph'], fields: [{ key: 'category' }] });
    const seen = { lastSource: 'receiver', firstReportedAt: expect.any(String), lastReportedAt: expect.any(String) };
    expect(capabilities).toEqual(expect.arrayContaining([
      { kind: 'section', name: 'timeline', inContract: false, ...seen },
      { kind: 'field', name: 'region', inContract: false, ...seen },
      { kind: 'section', name: 'content', inContract: true, ...seen },
    ]));
    const content = capabilities.find((c: { name: string }) => c.name === 'content');
    expect(Date.parse(content.lastReportedAt)).toBeGreaterThan(Date.parse(content.firstReportedAt));
    expect(reports).toEqual([{
      source: 'receiver', firstReportedAt: expect.any(String), reportedAt: expect.any(String), sectionTypes: ['content', 'timeline'], blockTypes: ['paragraph'],
      fields: [{ ...CATEGORY, required: false, multiple: false }, { ...REGION, multiple: false }],
    }]);
    expect((await report(goalId, { source: 'receiver', fields: [CATEGORY, REGION], sections: ['content'] })).body.newCapabilities).toEqual([]);
  });

  it('adopts the recorded capabilities only when a person sets them as the contract (PUT …/contract)', async () => {
    const goalId = await newGoal();
    await report(goalId, { source: 'receiver', fields: [CATEGORY], sections: ['content'], blocks: ['paragraph'] });
    await report(goalId, { source: 'receiver', fields: [CATEGORY, REGION], sections: ['content', 'timeline'], blocks: ['paragraph'] });
    const [latest] = (await contractOf(goalId)).reports;

    const adopted = await t.request('PUT', `/api/goals/${goalId}/contract`, { token, body: { sectionTypes: latest.sectionTypes, blockTypes: latest.blockTypes, fields: latest.fields } });
    expect(adopted.status).toBe(200);
    expect(adopted.body).toMatchObject({ origin: 'manual', version: 2, sectionTypes: ['content', 'timeline'], fields: [{ key: 'category' }, { key: 'region', required: true }] });
    await reader.waitFor<ContractChangedPayload>(ContractChanged.type, (p) => p.goalId === goalId && p.origin === 'manual');
    // Same key, same partition: had the second report changed the contract, its event would sit between these two.
    expect(changes(goalId).map((e) => [e.payload.version, e.payload.origin])).toEqual([[1, 'receiver'], [2, 'manual']]);
    expect((await contractOf(goalId)).capabilities.filter((c: { inContract: boolean }) => !c.inContract)).toEqual([]);
  });

  it('stores a report without source receiver as a plugin report: recorded, no contract, fields not applied', async () => {
    const goalId = await newGoal();
    for (const source of [undefined, 'wordpress']) {
      const res = await report(goalId, { ...(source ? { source } : {}), fields: [DESK], sections: ['content'] });
      expect(res.body).toMatchObject({ source: 'plugin', contractEstablished: false, appliedFields: false });
    }
    const view = await contractOf(goalId);
    expect(view.contract).toBeNull();
    expect(view.reports).toEqual([{ source: 'plugin', firstReportedAt: expect.any(String), reportedAt: expect.any(String), sectionTypes: ['content'], blockTypes: [], fields: [{ ...DESK, multiple: false }] }]);
    expect(view.capabilities.map((c: { kind: string; name: string }) => `${c.kind}:${c.name}`)).toEqual(['field:desk', 'section:content']);
  });

  it('publishes capability.reported for every report, changed or not, so the notifier knows the receiver still reports', async () => {
    const goalId = await newGoal();
    await report(goalId, { source: 'receiver', fields: [DESK, CATEGORY], sections: ['content'], blocks: ['paragraph'] });
    await report(goalId, { source: 'receiver', fields: [DESK, CATEGORY], sections: ['content'], blocks: ['paragraph'] });
    await reader.waitFor<CapabilityReportedPayload>(CapabilityReported.type, (p) => p.goalId === goalId);
    const reported = () => reader.all<CapabilityReportedPayload>(CapabilityReported.type, (p) => p.goalId === goalId);
    const events = await waitFor(() => reported().length >= 2 && reported(), { what: 'both capability.reported events' });
    expect(events).toHaveLength(2);
    expect(events[0].payload).toMatchObject({
      source: 'receiver', sectionTypes: ['content'], blockTypes: ['paragraph'], fieldKeys: ['desk', 'category'], requiredFields: [{ key: 'desk', label: 'Desk' }],
    });
  });

  it('never changes a manual contract: later receiver reports are only recorded', async () => {
    const goalId = await newGoal();
    const manual = await t.request('PUT', `/api/goals/${goalId}/contract`, { token, body: { sectionTypes: ['content'], blockTypes: ['paragraph'], fields: [CATEGORY] } });
    expect(manual.status).toBe(200);
    expect(manual.body).toMatchObject({ origin: 'manual', version: 1, fields: [{ key: 'category', required: false, multiple: false }] });
    const res = await report(goalId, { source: 'receiver', fields: [DESK], sections: ['faq'], blocks: ['table'] });
    expect(res.body).toEqual({ source: 'receiver', contractEstablished: false, appliedFields: false, newCapabilities: expect.arrayContaining([{ kind: 'section', name: 'faq' }]) });
    expect((await contractOf(goalId)).contract).toMatchObject({ origin: 'manual', version: 1, sectionTypes: ['content'], blockTypes: ['paragraph'], fields: [{ key: 'category' }] });
    await reader.waitFor<ContractChangedPayload>(ContractChanged.type, (p) => p.goalId === goalId && p.origin === 'manual');
    expect(changes(goalId)).toHaveLength(1);
  });

  it.each([
    ['an enum without options', [DESK, { key: 'tone', label: 'Tone', type: 'text' }, { key: 'kind', label: 'Kind', type: 'enum' }], 'fields[2].options'],
    ['multiple on a text field', [{ ...DESK, multiple: true }], 'fields[0].multiple'],
    ['a duplicate key', [DESK, DESK], 'fields[1].key'],
    ['a key with capitals', [{ ...DESK, key: 'Desk' }], 'fields[0].key'],
    ['an unknown type', [{ ...DESK, type: 'number' }], 'fields[0].type'],
  ])('refuses a report with %s: 422 naming the field', async (_name, fields, field) => {
    const goalId = await newGoal();
    const res = await report(goalId, { source: 'receiver', fields });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.errors).toEqual([{ field, message: expect.any(String) }]);
    expect((await contractOf(goalId)).contract).toBeNull();
  });

  it('refuses unknown nested keys with 400 and another workspace\'s token with 404', async () => {
    const goalId = await newGoal();
    const nested = await report(goalId, { source: 'receiver', fields: [{ ...DESK, colour: 'red' }], sections: ['content'] });
    expect(nested.status).toBe(400);
    expect(nested.body.errors).toEqual([{ field: 'fields[0].colour', message: expect.any(String) }]);
    const other = await createWorkspace(t, 'Other');
    expect((await t.request('PUT', `/api/goals/${goalId}/target-manifest`, { token: other.token, body: { source: 'receiver' } })).status).toBe(404);
    expect((await t.request('GET', `/api/goals/${goalId}/contract`, { token: other.token })).status).toBe(404);
  });
});
