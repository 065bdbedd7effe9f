export interface BatchedReadOptions {
  /** Most keys read in one statement. */
  maxBatch: number;
}

interface Waiter<V> {
  found: (value: V | undefined) => void;
  failed: (err: unknown) => void;
}

/**
 * Reads by key, coalesced: keys asked for while a read is on its way form the next read, one statement for all of
 * them (`read` answers the rows it found, by key). A quiet caller never waits; a busy API pays one statement per
 * batch instead of one per request. A batch that fails is read again key by key, so a key that breaks the statement
 * fails only its own callers.
 */
export class BatchedRead<K, V> {
  private readonly waiting = new Map<K, Waiter<V>[]>();
  private reading = false;

  constructor(private readonly read: (keys: readonly K[]) => Promise<Map<K, V>>, private readonly options: BatchedReadOptions) {}

  /** The value of `key`, or undefined when there is none. */
  get(key: K): Promise<V | undefined> {
    return new Promise((found, failed) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ found, failed });
      else this.waiting.set(key, [{ found, failed }]);
      if (!this.reading) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.reading = true;
    while (this.waiting.size > 0) {
      const batch = [...this.waiting].slice(0, this.options.maxBatch);
      for (const [key] of batch) this.waiting.delete(key);
      try {
        const values = await this.read(batch.map(([key]) => key));
        for (const [key, waiters] of batch) waiters.forEach((w) => w.found(values.get(key)));
      } catch (err) {
        if (batch.length === 1) batch[0][1].forEach((w) => w.failed(err));
        else for (const [key, waiters] of batch) {
          await this.read([key]).then((values) => waiters.forEach((w) => w.found(values.get(key))), (e: unknown) => waiters.forEach((w) => w.failed(e)));
        }
      }
    }
    this.reading = false;
  }
}
