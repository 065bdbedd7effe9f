import { ResultRevised } from '@owd/events';
import { on } from './event-consumer';
import { withSettings } from './messaging.service';

const config = (values: Record<string, number>) => ({ get: <T>(key: string) => values[key] as T });
const settings = { KAFKA_SESSION_TIMEOUT_MS: 30_000, PROCESSED_EVENTS_RETAIN_MS: 86_400_000, KAFKA_FETCH_WAIT_MS: 20 };

describe('withSettings', () => {
  it('gives a consumer the service\'s settings for what its spec leaves unset', () => {
    const spec = withSettings({ groupId: 'svc.results', on: [on(ResultRevised, async () => undefined)] }, config(settings));
    expect(spec).toMatchObject({ sessionTimeoutMs: 30_000, processedRetentionMs: 86_400_000, fetchWaitMs: 20 });
  });

  it('keeps what the spec sets itself, 0 included', () => {
    const base = { groupId: 'svc.results', on: [on(ResultRevised, async () => undefined)] };
    expect(withSettings({ ...base, fetchWaitMs: 250, sessionTimeoutMs: 10_000 }, config(settings))).toMatchObject({ fetchWaitMs: 250, sessionTimeoutMs: 10_000 });
    expect(withSettings({ ...base, fetchWaitMs: 0 }, config(settings)).fetchWaitMs).toBe(0);
  });
});
