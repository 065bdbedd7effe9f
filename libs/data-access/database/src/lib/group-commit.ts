import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';

export interface GroupCommitOptions {
  /** What the items are, for the log line of a failed batch (e.g. "attempts"). */
  what: string;
  /** Most items written in one transaction. */
  maxBatch: number;
}

interface Waiting<T, R> {
  item: T;
  done: (written: R) => void;
  failed: (err: unknown) => void;
}

/**
 * Group commit: items submitted while a batch is being written form the next batch, and each batch is written
 * in ONE transaction by `write` (set-based statements whatever its size), so a busy writer pays one commit per
 * batch and a quiet one never waits. `write` answers one value per item, in order. A batch that fails is written
 * again item by item, each in its own transaction, so one bad item fails only its own submission.
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
  submit(item: T): Promise<R> {
    return new Promise((done, failed) => {
      this.queue.push({ item, done, failed });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      try {
        const written = await this.dataSource.transaction((manager) => this.write(manager, batch.map((w) => w.item)));
        batch.forEach((w, i) => w.done(written[i]));
      } catch (err) {
        if (batch.length > 1) {
          this.logger.warn({ msg: `writing a batch of ${this.options.what} failed; writing them one by one`, items: batch.length, err });
        }
        for (const w of batch) {
          await this.dataSource.transaction((manager) => this.write(manager, [w.item])).then(([r]) => w.done(r), w.failed);
        }
      }
    }
    this.flushing = false;
  }
}
