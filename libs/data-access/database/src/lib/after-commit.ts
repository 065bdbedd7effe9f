import type { EntityManager } from 'typeorm';
import { scopeState, type TransactionScope } from './transaction-scope';

/** The callbacks a transaction registered, run once it has committed for good (not at a savepoint release). */
const AFTER_COMMIT: TransactionScope<Set<() => void>> = {
  name: 'afterCommit',
  create: () => new Set(),
  afterCommit: (callbacks) => callbacks.forEach((fn) => fn()),
  // A callback wakes a worker: waking it once too often is harmless, so a savepoint's rollback keeps them.
  rollback: (callbacks) => callbacks,
};

/**
 * Calls `fn` once the transaction of `manager` has committed; never if it rolls back. For waking a
 * worker that should see what the transaction wrote: woken earlier, it would find nothing yet and go
 * back to sleep for its poll interval. Outside a transaction, `fn` runs on the next turn.
 */
export function afterCommit(manager: EntityManager, fn: () => void): void {
  const callbacks = scopeState(manager, AFTER_COMMIT);
  if (callbacks) callbacks.add(fn);
  else setImmediate(fn);
}
