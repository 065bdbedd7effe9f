import type { DataSource, EntityManager, EntitySubscriberInterface, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';

const KEY = 'owd.afterCommit';
type Callbacks = Set<() => void>;

/** Runs the callbacks a transaction registered once it has committed for good (not at a savepoint release). */
class AfterCommitSubscriber implements EntitySubscriberInterface {
  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    if (queryRunner.isTransactionActive) return; // a nested transaction's savepoint: the outer one may still roll back
    const callbacks = queryRunner.data[KEY] as Callbacks | undefined;
    delete queryRunner.data[KEY];
    callbacks?.forEach((fn) => fn());
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    if (!queryRunner.isTransactionActive) delete queryRunner.data[KEY];
  }
}

function ensureSubscriber(dataSource: DataSource): void {
  if (!dataSource.subscribers.some((s) => s instanceof AfterCommitSubscriber)) dataSource.subscribers.push(new AfterCommitSubscriber());
}

/**
 * Calls `fn` once the transaction of `manager` has committed; never if it rolls back. For waking a
 * worker that should see what the transaction wrote: woken earlier, it would find nothing yet and go
 * back to sleep for its poll interval. Outside a transaction, `fn` runs on the next turn.
 */
export function afterCommit(manager: EntityManager, fn: () => void): void {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) {
    setImmediate(fn);
    return;
  }
  ensureSubscriber(runner.connection);
  const callbacks = (runner.data[KEY] ??= new Set()) as Callbacks;
  callbacks.add(fn);
}
