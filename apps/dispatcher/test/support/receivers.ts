import { startReceiver, type TestReceiver } from '@owd/testing';

/** Loopback receivers a suite starts as it goes, all closed at its end. */
export function receiverPool(): { receiver: (...args: Parameters<typeof startReceiver>) => Promise<TestReceiver>; closeAll: () => Promise<void> } {
  const started: TestReceiver[] = [];
  return {
    receiver: async (...args) => {
      const r = await startReceiver(...args);
      started.push(r);
      return r;
    },
    closeAll: async () => {
      await Promise.all(started.map((r) => r.close()));
    },
  };
}
