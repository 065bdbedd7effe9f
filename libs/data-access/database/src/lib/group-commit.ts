import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';

export interface GroupCommitOptions {
  /** What the items are, for the log line of a failed batch (e.g. "attempts"). */
  what: string;
  /** Most items written in one transaction. */
  maxBatch: number;
}

/** Items submitted together: written in one transaction, and again together if their batch fails. */
interface Waiting<T, R> {
  items: readonly T[];
  done: (written: R[]) => void;
  failed: (err: unknown) => void;
}

/**
 * Group commit: items submitted while a batch is being written form the next batch, and each batch is written
 * in ONE transaction by `write` (set-based statements whatever its size), so a busy writer pays one commit per
 * batch and a quiet one never waits. `write` answers one value per item, in order. A batch that fails is written
 * again submission by submission, each in its own transaction, so one bad item fails only its own submission. The
 * items of one `submitAll` always share a transaction: they are written, or fail, together.
 */
export class GroupCommit<T, R> {
  private readonly logger = new Logger(GroupCommit.name);
  private queue: Waiting<T, R>[] = [];
  private flushing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly write: (manager: EntityManager, items: readonly T[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Resolves with what `write` answered for the item once its batch has committed. */
  async submit(item: T): Promise<R> {
    const [written] = await this.submitAll([item]);
    return written;
  }

  /**
   * Items that must commit together (at most `maxBatch` of them): resolves with what `write` answered for each, in
   * order, once their batch has committed; if any of them cannot be written, none is and the promise rejects.
   */
  submitAll(items: readonly T[]): Promise<R[]> {
    if (items.length === 0) return Promise.resolve([]);
    if (items.length > this.options.maxBatch) {
      return Promise.reject(new RangeError(`${items.length} ${this.options.what} submitted together, more than the ${this.options.maxBatch} a batch holds`));
    }
    return new Promise((done, failed) => {
      this.queue.push({ items, done, failed });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.nextBatch();
      try {
        const written = await this.writeTogether(batch.flatMap((w) => w.items));
        let at = 0;
        for (const w of batch) w.done(written.slice(at, (at += w.items.length)));
      } catch (err) {
        if (batch.length > 1) {
          this.logger.warn({ msg: `writing a batch of ${this.options.what} failed; writing them one submission at a time`, submissions: batch.length, err });
        }
        for (const w of batch) await this.writeTogether(w.items).then(w.done, w.failed);
      }
    }
    this.flushing = false;
  }

  /** The waiting submissions from the front whose items fit in one batch (the first always does). */
  private nextBatch(): Waiting<T, R>[] {
    let items = this.queue[0].items.length;
    let taken = 1;
    while (taken < this.queue.length && items + this.queue[taken].items.length <= this.options.maxBatch) items += this.queue[taken++].items.length;
    return this.queue.splice(0, taken);
  }

  private writeTogether(items: readonly T[]): Promise<R[]> {
    return this.dataSource.transaction((manager) => this.write(manager, items));
  }
}
