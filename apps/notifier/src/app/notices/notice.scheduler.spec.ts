import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { Clock } from '../clock/clock';
import { NoticeRepository } from './notice.repository';
import { NoticeScheduler } from './notice.scheduler';
import { NoticesService, type NoticeRunSummary } from './notices.service';

function summary(overrides: Partial<NoticeRunSummary> = {}): NoticeRunSummary {
  return {
    week: '2026-W48', goalsChecked: 0, matching: 0, sent: 0, alreadySent: 0, heldElsewhere: 0, refused: 0, released: 0,
    skippedNoOwnerEmail: 0, skippedDeleted: 0, aborted: false, ...overrides,
  };
}

async function scheduler(schedule: string, weekFinished = false) {
  const runs: Date[] = [];
  const results: NoticeRunSummary[] = [];
  const notices = { runWeeklyNotices: jest.fn(async (now: Date) => { runs.push(now); return results.shift() ?? summary(); }) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      NoticeScheduler,
      { provide: ConfigService, useValue: new ConfigService({ NOTICE_SCHEDULE: schedule, NOTICE_LEASE_SECONDS: 60 }) },
      { provide: Clock, useValue: { now: () => new Date() } },
      { provide: NoticesService, useValue: notices },
      { provide: NoticeRepository, useValue: { isWeekFinished: jest.fn(async () => weekFinished) } },
    ],
  }).compile();
  return { moduleRef, service: moduleRef.get(NoticeScheduler), runs, results };
}

describe('NoticeScheduler', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-25T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('runs on the weekday and time of a weekly schedule (UTC)', async () => {
    const { moduleRef, service, runs } = await scheduler('MON 08:00', true);
    await service.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(4 * 86_400_000 + 21 * 3_600_000 + 59 * 60_000);
    expect(runs).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs.map((d) => d.toISOString())).toEqual(['2026-11-30T08:00:00.000Z']);
    await moduleRef.close();
  });

  it('catches up at start when this week\'s run time has passed and the week is not finished', async () => {
    const { moduleRef, service, runs } = await scheduler('MON 08:00', false);
    await service.onApplicationBootstrap();
    await service.idle();
    expect(runs).toHaveLength(1);
    await moduleRef.close();
  });

  it('follows a run that left notices open up after the claim lease', async () => {
    const { moduleRef, service, runs, results } = await scheduler('MON 08:00', false);
    results.push(summary({ heldElsewhere: 1 }));
    await service.onApplicationBootstrap();
    await service.idle();
    await jest.advanceTimersByTimeAsync(61_000);
    expect(runs).toHaveLength(2);
    await moduleRef.close();
  });

  it('repeats an interval schedule and never runs when off', async () => {
    const every = await scheduler('every 10m');
    await every.service.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(30 * 60_000);
    expect(every.runs).toHaveLength(3);
    await every.moduleRef.close();

    const off = await scheduler('off');
    await off.service.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(8 * 86_400_000);
    expect(off.runs).toHaveLength(0);
    await off.moduleRef.close();
  });

  it('stops planning runs on shutdown', async () => {
    const { moduleRef, service, runs } = await scheduler('every 1m');
    await service.onApplicationBootstrap();
    await moduleRef.close();
    await jest.advanceTimersByTimeAsync(5 * 60_000);
    expect(runs).toHaveLength(0);
  });
});
