import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { register } from 'prom-client';
import { createTestDatabase, createTestTopics, type TestDatabase } from '@owd/testing';
import { MATCHING, seedGoal, type GoalSpec } from './support/goal-seed';
import { startNotifier, type NotifierInstance } from './support/notifier-app';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';

const NOW = new Date('2026-11-23T08:00:00Z');
const NEXT_WEEK = new Date('2026-11-30T08:00:00Z');
const DAY = 86_400_000;
const HOUR = 3_600_000;
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY).toISOString();
const hoursAgo = (n: number) => new Date(NOW.getTime() - n * HOUR).toISOString();
const fresh = { ...MATCHING, reportedAt: hoursAgo(2) };

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await register.getSingleMetric(name)?.get())?.values ?? [];
  return values.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l)).reduce((sum, v) => sum + v.value, 0);
}

describe('weekly contract notice (real Kafka, PostgreSQL and SMTP)', () => {
  let db: TestDatabase;
  let smtp: SmtpSink;
  let receiver: Server;
  let receiverHits = 0;
  let a: NotifierInstance;
  let b: NotifierInstance;

  /** The text of the one notice the owner got so far (fails on none or several). */
  const onlyNotice = (owner: string): string => {
    const mails = smtp.to(owner);
    expect(mails).toHaveLength(1);
    return mails[0].text;
  };

  const seed = (spec: GoalSpec) => seedGoal(a, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, spec);

  beforeAll(async () => {
    db = await createTestDatabase();
    const { prefix, brokers } = await createTestTopics();
    smtp = await startSmtpSink({ acceptDelayMs: 50 });
    receiver = createServer((_req, res) => { receiverHits++; res.end(); }).listen(0, '127.0.0.1');
    Object.assign(process.env, {
      DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, MIGRATE_ON_START: 'true', PORT: '3994',
      SMTP_URL: smtp.url, NOTICE_FROM: 'notices@owd.example.test', NOTICE_SCHEDULE: 'off', STALE_REPORT_AFTER_DAYS: '1',
      SMTP_RETRY_BASE_MS: '20', SMTP_TIMEOUT_MS: '5000', LOG_LEVEL: 'warn',
    });
    a = await startNotifier();
    b = await startNotifier();
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await smtp?.close();
    receiver?.close();
    await db?.drop();
  });

  it('e-mails the owner every section type, block type and field of a manual contract the receiver no longer reports, never the receiver', async () => {
    const { goalId, owner } = await seed({
      name: 'Daily news',
      report: { sectionTypes: ['text'], blockTypes: ['paragraph'], fieldKeys: ['category'], reportedAt: hoursAgo(2) },
    });
    await a.notices.runWeeklyNotices(NOW);

    const [mail] = smtp.to(owner);
    expect(smtp.to(owner)).toHaveLength(1);
    expect(mail.text).toContain('Subject: Action needed for "Daily news": the contract uses types the receiver does not report');
    expect(mail.text).toContain('the latest capability report of the receiver does not list these parts of it');
    expect(mail.text).toContain('section type "gallery"');
    expect(mail.text).toContain('content element (block type) "quote"');
    expect(mail.text).toContain('field "region" (REGION)');
    expect(mail.text).not.toContain('section type "text"');
    expect(mail.text).toContain(`Message-ID: <notice.${goalId}.2026-W48@owd.example.test>`);
    expect(mail.text).toMatch(/Content-Type: text\/plain[\s\S]*Content-Type: text\/html/);
    expect(receiverHits).toBe(0);
  });

  it('e-mails the owner of a receiver-established contract what a later report added: section types and required fields, and how to adopt them', async () => {
    const { goalId, owner } = await seed({
      name: 'Regional desk', origin: 'receiver',
      report: {
        ...MATCHING, sectionTypes: ['text', 'gallery', 'timeline'], fieldKeys: ['category', 'region', 'region_code', 'note'],
        requiredFields: [{ key: 'region', label: 'REGION' }, { key: 'region_code', label: 'Region code' }], reportedAt: hoursAgo(2),
      },
    });
    await a.notices.runWeeklyNotices(NOW);

    const text = onlyNotice(owner);
    expect(text).toContain('Subject: Action needed for "Regional desk": the receiver reports capabilities the contract does not have');
    expect(text).toContain('section type "timeline"');
    expect(text).toContain('required field "region_code" (Region code)');
    expect(text).not.toMatch(/"(region|note|gallery)"/);
    expect(text).toContain(`PUT /api/goals/${goalId}/contract`);
    expect(receiverHits).toBe(0);
  });

  it('tells the owner of a receiver that stopped reporting the date of its last report', async () => {
    const { owner } = await seed({ origin: 'receiver', report: { ...MATCHING, reportedAt: '2026-11-13T09:30:00.000Z' } });
    await a.notices.runWeeklyNotices(NOW);

    const text = onlyNotice(owner);
    expect(text).toContain('the receiver stopped reporting its capabilities');
    expect(text).toContain('The receiver has not reported its capabilities for more than 1 day:');
    expect(text).not.toContain('1 days');
    expect(text).toContain('last report: 2026-11-13 09:30 UTC');
    expect(text).not.toContain('section type');
  });

  it('puts a mismatch and a stale receiver in one e-mail', async () => {
    const { owner } = await seed({ report: { ...MATCHING, blockTypes: ['paragraph'], reportedAt: daysAgo(30) } });
    await a.notices.runWeeklyNotices(NOW);

    const text = onlyNotice(owner);
    expect(text).toContain('contract mismatch and receiver not reporting');
    expect(text).toContain('content element (block type) "quote"');
    expect(text).toContain(`last report: ${daysAgo(30).slice(0, 10)}`);
  });

  it('sends nothing for goals that match and report, nor for a receiver-made contract, and skips a goal without owner e-mail', async () => {
    const ok = await seed({ report: fresh });
    const receiverMade = await seed({ origin: 'receiver', report: { ...fresh, sectionTypes: [], blockTypes: [], fieldKeys: [] } });
    const skippedBefore = await metric('owd_notices_skipped_total', { reason: 'no_owner_email' });
    const noOwner = await seed({ ownerEmail: null, report: { ...fresh, sectionTypes: ['text'] } });
    const summary = await a.notices.runWeeklyNotices(NOW);

    expect(smtp.to(ok.owner)).toHaveLength(0);
    expect(smtp.to(receiverMade.owner)).toHaveLength(0);
    expect(smtp.received.some((m) => m.text.includes(noOwner.goalId))).toBe(false);
    expect(summary.skippedNoOwnerEmail).toBeGreaterThanOrEqual(1);
    expect(await metric('owd_notices_skipped_total', { reason: 'no_owner_email' })).toBe(skippedBefore + 1);
  });

  it('sends one e-mail per goal when two instances run the week concurrently, none on a repeat, and a new one next week', async () => {
    const goals = await Promise.all([1, 2, 3, 4].map(() => seed({ report: { ...fresh, sectionTypes: ['text'] } })));
    const [ra, rb] = await Promise.all([a.notices.runWeeklyNotices(NOW), b.notices.runWeeklyNotices(NOW)]);
    for (const g of goals) expect(smtp.to(g.owner)).toHaveLength(1);
    expect(ra.sent + rb.sent).toBeGreaterThanOrEqual(goals.length);

    const repeat = await b.notices.runWeeklyNotices(new Date(NOW.getTime() + 2 * HOUR));
    for (const g of goals) expect(smtp.to(g.owner)).toHaveLength(1);
    expect(repeat.sent).toBe(0);

    await a.notices.runWeeklyNotices(NEXT_WEEK);
    for (const g of goals) {
      expect(smtp.to(g.owner)).toHaveLength(2);
      expect(smtp.to(g.owner)[1].text).toContain(`<notice.${g.goalId}.2026-W49@owd.example.test>`);
    }
  });

  it('retries a send the SMTP server refused with 451, sends it once and counts the failure', async () => {
    const { goalId, owner } = await seed({ report: { ...fresh, fieldKeys: [] } });
    smtp.rejectNext(owner, 451);
    const retriedBefore = await metric('owd_notices_failed_total', { outcome: 'retried' });
    const sentBefore = await metric('owd_notices_sent_total');
    await a.notices.runWeeklyNotices(NOW);

    expect(smtp.to(owner)).toHaveLength(1);
    expect(await metric('owd_notices_failed_total', { outcome: 'retried' })).toBe(retriedBefore + 1);
    expect(await metric('owd_notices_sent_total')).toBeGreaterThanOrEqual(sentBefore + 1);
    const [row] = await a.dataSource.query(`SELECT status, attempts FROM notices WHERE goal_id = $1`, [goalId]);
    expect(row).toEqual({ status: 'sent', attempts: 2 });
  });

  it('takes over the claim of an instance that died mid-run once its lease ran out, and leaves a live claim alone', async () => {
    const crashed = await seed({ report: { ...fresh, sectionTypes: ['text'] } });
    const busy = await seed({ report: { ...fresh, sectionTypes: ['text'] } });
    const claim = `INSERT INTO notices (goal_id, iso_week, status, recipient, message_id, subject, findings, claimed_by, claimed_until)
                   VALUES ($1, '2026-W48', 'pending', $2, 'x', 'x', '{}', $3, now() + $4::interval)`;
    await a.dataSource.query(claim, [crashed.goalId, crashed.owner, randomUUID(), '-1 second']);
    await a.dataSource.query(claim, [busy.goalId, busy.owner, randomUUID(), '10 minutes']);
    const summary = await b.notices.runWeeklyNotices(NOW);

    expect(smtp.to(crashed.owner)).toHaveLength(1);
    expect(smtp.to(crashed.owner)[0].text).toContain(`Message-ID: <notice.${crashed.goalId}.2026-W48@owd.example.test>`);
    expect(smtp.to(busy.owner)).toHaveLength(0);
    expect(summary.heldElsewhere).toBe(1);
    const [week] = await a.dataSource.query(`SELECT finished_at FROM notice_runs WHERE iso_week = '2026-W48'`);
    expect(week.finished_at).toBeNull();
  });

  it('judges each source by its own latest report: a plugin lacking a type is named, the receiver that still reports it is not blamed', async () => {
    const contract = { sectionTypes: ['content', 'timeline'], blockTypes: ['paragraph'], fieldKeys: [] };
    const { owner } = await seed({
      name: 'Timeline desk', contract,
      report: { ...contract, reportedAt: hoursAgo(3) },
      laterReports: [{ ...contract, source: 'wordpress', sectionTypes: ['content'], reportedAt: hoursAgo(2) }],
    });
    await a.notices.runWeeklyNotices(NOW);

    const text = onlyNotice(owner);
    expect(text).toContain('Subject: Action needed for "Timeline desk": the contract uses types the plugin "wordpress" does not report');
    expect(text).toContain('the latest capability report of the plugin "wordpress" does not list these parts of it:');
    expect(text).toContain('section type "timeline"');
    expect(text).not.toMatch(/receiver (no longer|does not) report/);
    expect(text).not.toContain('report of the receiver');
  });

  it('tells the owner that a plugin stopped reporting while the receiver keeps reporting, naming the plugin and its last report', async () => {
    const { owner } = await seed({
      name: 'Quiet plugin',
      report: { ...MATCHING, source: 'wordpress', reportedAt: '2026-11-19T10:15:00.000Z' },
      laterReports: [{ ...MATCHING, reportedAt: hoursAgo(2) }],
    });
    await a.notices.runWeeklyNotices(NOW);

    const text = onlyNotice(owner);
    expect(text).toContain('Subject: Action needed for "Quiet plugin": the plugin "wordpress" stopped reporting its capabilities');
    expect(text).toContain('The plugin "wordpress" has not reported its capabilities for more than 1 day:');
    expect(text).toContain('last report: 2026-11-19 10:15 UTC');
    expect(text).not.toContain('The receiver has not reported');
  });

  it('counts a goal skipped for want of an owner e-mail once per week, however many runs and instances see it', async () => {
    const { goalId } = await seed({ ownerEmail: null, report: { ...fresh, sectionTypes: ['text'] } });
    const before = await metric('owd_notices_skipped_total', { reason: 'no_owner_email' });
    const first = await a.notices.runWeeklyNotices(NOW);
    const afterFirst = await metric('owd_notices_skipped_total', { reason: 'no_owner_email' });
    const followUps = [await b.notices.runWeeklyNotices(new Date(NOW.getTime() + HOUR)), await a.notices.runWeeklyNotices(new Date(NOW.getTime() + 2 * HOUR))];

    expect(afterFirst).toBe(before + 1);
    expect(await metric('owd_notices_skipped_total', { reason: 'no_owner_email' })).toBe(afterFirst);
    for (const run of [first, ...followUps]) expect(run.skippedNoOwnerEmail).toBeGreaterThanOrEqual(1);

    await a.notices.runWeeklyNotices(NEXT_WEEK);
    const nextWeek = await metric('owd_notices_skipped_total', { reason: 'no_owner_email' });
    await b.notices.runWeeklyNotices(new Date(NEXT_WEEK.getTime() + HOUR));
    expect(nextWeek).toBeGreaterThan(afterFirst);
    expect(await metric('owd_notices_skipped_total', { reason: 'no_owner_email' })).toBe(nextWeek);
    const weeks = await a.dataSource.query(`SELECT iso_week FROM notice_skips WHERE goal_id = $1 ORDER BY iso_week`, [goalId]);
    expect(weeks).toEqual([{ iso_week: '2026-W48' }, { iso_week: '2026-W49' }]);
  });

  it('forgets skips older than two weeks when a run starts, and keeps the recent ones', async () => {
    const [old, recent] = [randomUUID(), randomUUID()];
    await a.dataSource.query(
      `INSERT INTO notice_skips (goal_id, iso_week, reason, skipped_at)
       VALUES ($1, '2026-W45', 'no_owner_email', now() - interval '15 days'), ($2, '2026-W47', 'no_owner_email', now() - interval '13 days')`,
      [old, recent]);
    await a.notices.runWeeklyNotices(NOW);

    const left = await a.dataSource.query(`SELECT goal_id FROM notice_skips WHERE goal_id = ANY($1)`, [[old, recent]]);
    expect(left).toEqual([{ goal_id: recent }]);
  });
});
