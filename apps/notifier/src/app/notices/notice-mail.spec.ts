import { composeNotice, type NoticeMailInput } from './notice-mail';

const base: NoticeMailInput = {
  goalId: '7d5c1c38-9a0e-4d0b-8f43-0b7e1a2f3c4d',
  goalName: 'Daily news',
  ownerEmail: 'owner@example.test',
  week: '2026-W48',
  senderDomain: 'notices.example.test',
  findings: {},
};

describe('composeNotice', () => {
  it('names every missing section type, block type and field and says what to change', () => {
    const mail = composeNotice({
      ...base,
      findings: { mismatch: [{ source: 'receiver', sectionTypes: ['gallery'], blockTypes: ['quote'], fields: [{ key: 'region', label: 'Region' }] }] },
    });
    expect(mail.subject).toBe('Action needed for "Daily news": the contract uses types the receiver does not report');
    expect(mail.text).toContain('the latest capability report of the receiver does not list these parts of it');
    expect(mail.text).toContain('section type "gallery"');
    expect(mail.text).toContain('content element (block type) "quote"');
    expect(mail.text).toContain('field "region" (Region)');
    expect(mail.text).toContain('What to change: remove them from the goal\'s content contract');
    expect(mail.html).toContain('<li>section type &quot;gallery&quot;</li>');
    expect(mail.to).toBe('owner@example.test');
  });

  it('gives the date of the last report of a receiver that stopped reporting', () => {
    const mail = composeNotice({ ...base, findings: { stale: { sources: [{ source: 'receiver', lastReportedAt: '2026-11-13T08:00:00.000Z' }], afterDays: 7 } } });
    expect(mail.subject).toBe('Action needed for "Daily news": the receiver stopped reporting its capabilities');
    expect(mail.text).toContain('The receiver has not reported its capabilities for more than 7 days:');
    expect(mail.text).toContain('last report: 2026-11-13 08:00 UTC');
    expect(mail.text).toContain(`PUT /api/goals/${base.goalId}/target-manifest`);
  });

  it('names what a later receiver report added to a receiver-established contract and how to adopt it', () => {
    const mail = composeNotice({
      ...base,
      findings: { drift: { sectionTypes: ['timeline'], blockTypes: [], requiredFields: [{ key: 'region', label: 'Region' }] } },
    });
    expect(mail.subject).toBe('Action needed for "Daily news": the receiver reports capabilities the contract does not have');
    expect(mail.text).toContain('section type "timeline"');
    expect(mail.text).toContain('required field "region" (Region)');
    expect(mail.text).toContain('Deliveries are not held back');
    expect(mail.text).toContain(`with PUT /api/goals/${base.goalId}/contract`);
  });

  it('names new capabilities and a stale receiver in one subject', () => {
    const mail = composeNotice({
      ...base,
      findings: {
        drift: { sectionTypes: ['timeline'], blockTypes: [], requiredFields: [] },
        stale: { sources: [{ source: 'receiver', lastReportedAt: '2026-11-13T08:00:00.000Z' }], afterDays: 7 },
      },
    });
    expect(mail.subject).toBe('Action needed for "Daily news": new receiver capabilities and receiver not reporting');
  });

  it.each([
    ['receiver', 'contract mismatch and receiver not reporting'],
    ['wordpress', 'contract mismatch and plugin "wordpress" not reporting'],
  ])('has one subject for a mismatch and a stale %s', (source, subject) => {
    const mail = composeNotice({
      ...base,
      findings: {
        mismatch: [{ source: 'receiver', sectionTypes: ['gallery'], blockTypes: [], fields: [] }],
        stale: { sources: [{ source, lastReportedAt: '2026-11-13T08:00:00.000Z' }], afterDays: 7 },
      },
    });
    expect(mail.subject).toBe(`Action needed for "Daily news": ${subject}`);
  });

  it('uses the same Message-ID for the same goal and week, and another one the next week', () => {
    const a = composeNotice({ ...base, findings: { stale: { sources: [{ source: 'receiver', lastReportedAt: '2026-11-13T08:00:00.000Z' }], afterDays: 7 } } });
    const b = composeNotice({ ...base, findings: { mismatch: [{ source: 'receiver', sectionTypes: ['x'], blockTypes: [], fields: [] }] } });
    const next = composeNotice({ ...base, week: '2026-W49', findings: { mismatch: [{ source: 'receiver', sectionTypes: ['x'], blockTypes: [], fields: [] }] } });
    expect(a.messageId).toBe(`<notice.${base.goalId}.2026-W48@notices.example.test>`);
    expect(b.messageId).toBe(a.messageId);
    expect(next.messageId).not.toBe(a.messageId);
  });

  it('escapes the goal name in HTML and keeps it and a plugin source on one line in the subject', () => {
    const mail = composeNotice({
      ...base,
      goalName: '<b>News</b>\r\nBcc: x@evil.test',
      findings: { mismatch: [{ source: 'wp\r\nBcc: x@evil.test', sectionTypes: ['<img>'], blockTypes: [], fields: [] }] },
    });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain('<b>News</b>');
    expect(mail.html).toContain('&lt;img&gt;');
  });

  it('names the plugin whose own report lacks a type, and does not say the receiver stopped reporting it', () => {
    const mail = composeNotice({ ...base, findings: { mismatch: [{ source: 'wordpress', sectionTypes: ['timeline'], blockTypes: [], fields: [] }] } });
    expect(mail.subject).toBe('Action needed for "Daily news": the contract uses types the plugin "wordpress" does not report');
    expect(mail.text).toContain('the latest capability report of the plugin "wordpress" does not list these parts of it:\n  - section type "timeline"');
    expect(mail.text).toContain('or update the plugin "wordpress" so that its capability report lists them again');
    expect(mail.text).not.toContain('the receiver does not report');
    expect(mail.text).not.toContain('report of the receiver');
  });

  it('gives each source that stopped reporting its own paragraph and names them all in the subject', () => {
    const mail = composeNotice({
      ...base,
      findings: {
        stale: {
          sources: [{ source: 'receiver', lastReportedAt: '2026-11-10T08:00:00.000Z' }, { source: 'wordpress', lastReportedAt: '2026-11-01T12:30:00.000Z' }],
          afterDays: 7,
        },
      },
    });
    expect(mail.subject).toBe('Action needed for "Daily news": the receiver and the plugin "wordpress" stopped reporting their capabilities');
    expect(mail.text).toContain('The receiver has not reported its capabilities for more than 7 days:\n  - last report: 2026-11-10 08:00 UTC');
    expect(mail.text).toContain('The plugin "wordpress" has not reported its capabilities for more than 7 days:\n  - last report: 2026-11-01 12:30 UTC');
    expect(mail.text).toContain('check that the plugin "wordpress" is running');
  });

  it.each([[1, 'more than 1 day:'], [2, 'more than 2 days:']])('pluralises the stale threshold of %i day(s)', (afterDays, text) => {
    const mail = composeNotice({ ...base, findings: { stale: { sources: [{ source: 'receiver', lastReportedAt: '2026-11-13T08:00:00.000Z' }], afterDays } } });
    expect(mail.text).toContain(`The receiver has not reported its capabilities for ${text}`);
    expect(mail.text).not.toContain('1 days');
  });
});
