import { WakeableSleep } from './wakeable-sleep';

describe('WakeableSleep', () => {
  it('sleeps for the given time when nothing wakes it', async () => {
    const started = Date.now();
    await new WakeableSleep().sleep(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('ends the current sleep at once when woken', async () => {
    const s = new WakeableSleep();
    const started = Date.now();
    const slept = s.sleep(10_000);
    s.wake();
    await slept;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps a wake that came while awake for the next sleep, once', async () => {
    const s = new WakeableSleep();
    s.wake();
    const started = Date.now();
    await s.sleep(10_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    const second = Date.now();
    await s.sleep(40);
    expect(Date.now() - second).toBeGreaterThanOrEqual(35);
  });
});
