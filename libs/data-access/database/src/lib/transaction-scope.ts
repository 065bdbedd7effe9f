import type {
  DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent,
} from 'typeorm';
import { addPending, dropPending, sendPending, transactionDepth, type DeferredWrite } from './deferred-writes';

export type { DeferredWrite } from './deferred-writes';

const KEY = 'owd.transactionScopes';

/**
 * State that lives as long as one database transaction, with what happens to it at the transaction's end.
 * Declared once (a module constant); its state is created on first use in each transaction.
 */
export interface TransactionScope<T> {
  /** Unique name (the state's key on the query runner). */
  name: string;
  create(): T;
  /**
   * Inside the transaction, just before it commits (also before a savepoint is released: the outer
   * transaction then still decides). What it writes commits or rolls back with the transaction.
   */
  beforeCommit?(state: T, runner: QueryRunner): Promise<void>;
  /** Once the transaction has committed for good. */
  afterCommit?(state: T): void;
  /**
   * The transaction, or a savepoint of it, rolls back to `depth` (0: the whole transaction). Returns the
   * state kept for the rest of the transaction; without this hook nothing is kept.
   */
  rollback?(state: T, depth: number): T | undefined;
  /** The state is dropped by a rollback: of the whole transaction, or of a savepoint when `rollback` keeps nothing. */
  discarded?(state: T): void;
}

type Scopes = Map<TransactionScope<unknown>, unknown>;

export { transactionDepth } from './deferred-writes';

const scopesOf = (runner: QueryRunner): Scopes | undefined => runner.data[KEY] as Scopes | undefined;

/**
 * The one subscriber that runs every scope's hooks, in the order the scopes were first used, and sends the writes
 * deferred in the transaction (deferred-writes.ts) after the scopes' beforeCommit, which defer theirs too.
 */
class TransactionScopeSubscriber implements EntitySubscriberInterface {
  async beforeTransactionCommit({ queryRunner }: TransactionCommitEvent): Promise<void> {
    for (const [scope, state] of scopesOf(queryRunner) ?? []) await scope.beforeCommit?.(state, queryRunner);
    await sendPending(queryRunner);
  }

  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    if (queryRunner.isTransactionActive) return; // a savepoint released: the outer transaction may still roll back
    const scopes = scopesOf(queryRunner);
    delete queryRunner.data[KEY];
    for (const [scope, state] of scopes ?? []) scope.afterCommit?.(state);
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    const depth = queryRunner.isTransactionActive ? transactionDepth(queryRunner) : 0;
    dropPending(queryRunner, depth);
    const scopes = scopesOf(queryRunner);
    if (!scopes) return;
    for (const [scope, state] of scopes) {
      const kept = depth > 0 ? scope.rollback?.(state, depth) : undefined;
      if (kept !== undefined) {
        scopes.set(scope, kept);
        continue;
      }
      scopes.delete(scope);
      scope.discarded?.(state);
    }
    if (depth === 0) delete queryRunner.data[KEY];
  }
}

function ensureSubscriber(dataSource: DataSource): void {
  if (!dataSource.subscribers.some((s) => s instanceof TransactionScopeSubscriber)) dataSource.subscribers.push(new TransactionScopeSubscriber());
}

/** The scope's state in the transaction of `manager` (created on first use); undefined outside a transaction. */
export function scopeState<T>(manager: EntityManager, scope: TransactionScope<T>): T | undefined {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) return undefined;
  ensureSubscriber(runner.connection);
  const scopes = (runner.data[KEY] ??= new Map()) as Scopes;
  if (!scopes.has(scope)) scopes.set(scope, scope.create());
  return scopes.get(scope) as T;
}

/**
 * Defers `write` to the end of the transaction of `manager`: just before it commits (or a savepoint is released),
 * after every scope's beforeCommit, the writes deferred in it go out in ONE statement, as the data-modifying parts of
 * a WITH. A unit of work that ends with four inserts costs one round trip for them instead of four.
 *
 * The parts of one statement run on one snapshot and do not see each other's rows (constraints are checked at its
 * end, so a row may refer to one another part inserts), and a row may be changed by one part only: defer only writes
 * that no other deferred write of the transaction reads or changes. A reader that needs the deferred rows first
 * calls `sendDeferredWrites`. A rolled-back savepoint drops what was deferred inside it.
 */
export function deferWrite(manager: EntityManager, write: DeferredWrite): void {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) throw new Error('a write is deferred inside a transaction');
  ensureSubscriber(runner.connection);
  addPending(runner, write);
}

/** Sends the writes deferred so far in the transaction of `manager` now (one statement), e.g. before a read of them. */
export async function sendDeferredWrites(manager: EntityManager): Promise<void> {
  if (manager.queryRunner) await sendPending(manager.queryRunner);
}
