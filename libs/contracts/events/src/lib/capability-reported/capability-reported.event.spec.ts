import { createEnvelope } from '../envelope/create-envelope';
import { definitionMap, parseEnvelope } from '../envelope/parse-envelope';
import { ALL_EVENTS } from '../registry';
import { TOPICS } from '../topics';
import { CapabilityReported, CapabilityReportedPayload } from './capability-reported.event';

const definitions = definitionMap(ALL_EVENTS);
const report: CapabilityReportedPayload = {
  goalId: '0d8f6c2a-3b1e-4c55-9a77-21f0e3c4b5a6',
  workspaceId: '6a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d',
  source: 'receiver',
  sectionTypes: ['text'],
  blockTypes: ['paragraph'],
  fieldKeys: ['category'],
  reportedAt: '2026-11-20T10:00:00.000Z',
};

function parse(payload: object) {
  const envelope = createEnvelope(CapabilityReported, payload as CapabilityReportedPayload, { correlationId: 'c' });
  return parseEnvelope(Buffer.from(JSON.stringify(envelope)), definitions);
}

describe('capability.reported', () => {
  it('is registered on its own topic, keyed by goal', () => {
    expect(CapabilityReported.topic).toBe(TOPICS.CAPABILITY_REPORTED);
    const parsed = parse(report);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.envelope.key).toBe(report.goalId);
      expect(parsed.envelope.payload).toBeInstanceOf(CapabilityReportedPayload);
    }
  });

  it('accepts a report with its required fields, and one from an older producer without them', () => {
    expect(parse({ ...report, requiredFields: [{ key: 'region', label: 'Region' }] }).ok).toBe(true);
    expect(parse(report).ok).toBe(true);
  });

  it.each([
    ['a reportedAt that is not ISO 8601', { reportedAt: 'yesterday' }, /reportedAt/],
    ['an empty source', { source: '' }, /source/],
    ['a non-string field key', { fieldKeys: [1] }, /fieldKeys/],
    ['a required field without a label', { requiredFields: [{ key: 'region' }] }, /requiredFields/],
  ])('rejects %s', (_name, change, reason) => {
    expect(parse({ ...report, ...change })).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
  });
});
