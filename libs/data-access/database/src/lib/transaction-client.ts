import { Client } from 'pg';
import { databaseMetrics } from './statement-metrics';

/** What TypeORM sends to begin, commit and roll back its outermost transaction (PostgresQueryRunner). */
const BEGIN = 'START TRANSACTION';
const COMMIT = 'COMMIT';
const ROLLBACK = 'ROLLBACK';

/**
 * Where the connection's transaction stands: none; begun by TypeORM but not sent yet; sent; or ended by its last
 * statement, sent on its own (PostgreSQL committed it as it ran), so its COMMIT or ROLLBACK is answered here.
 */
type State = 'none' | 'unsent' | 'open' | 'ended';

/** pg's answer to transaction control, for the control that was not sent. */
const answered = (command: string) => Promise.resolve({ command, rowCount: null, oid: null, rows: [], fields: [] });

const textOf = (config: unknown): string | undefined =>
  typeof config === 'string' ? config : typeof (config as { text?: unknown } | null)?.text === 'string' ? (config as { text: string }).text : undefined;

/**
 * pg's Client for the services' pools: it sends a transaction's control only where it changes something, and counts
 * what it sends (`owd_db_statements_total`, `owd_db_commits_total`).
 *
 * TypeORM sends `START TRANSACTION` when a unit of work starts, before anything else. Here it goes just before the
 * transaction's first statement instead (the same round trips), and:
 * - a transaction that sends nothing costs nothing: its COMMIT or ROLLBACK is answered here;
 * - a transaction whose only statement is its last, the one that carries its deferred writes (deferred-writes.ts),
 *   sends that statement alone: PostgreSQL runs a statement outside a transaction block as a transaction of its own,
 *   all of it or none of it, with its WAL flushed before it answers, as a COMMIT would. One round trip instead of
 *   three. The unit of work's `COMMIT` (or `ROLLBACK`, when the statement failed and did nothing) is answered here.
 * The transaction scopes mark that statement (`endsTransactionNext`); nothing may follow it but the COMMIT.
 */
export class TransactionClient extends Client {
  private state: State = 'none';
  private lastNext = false;

  /** The next statement is the transaction's last before its COMMIT: sent alone if nothing was sent before it. */
  endsTransactionNext(): void {
    this.lastNext = true;
  }

  override query(...args: unknown[]): never {
    const send = super.query.bind(this) as (...a: unknown[]) => never;
    const text = textOf(args[0]);
    const last = this.lastNext;
    this.lastNext = false;
    if (text === BEGIN && this.state === 'none') {
      this.state = 'unsent';
      return answered('BEGIN') as never;
    }
    if ((text === COMMIT || text === ROLLBACK) && (this.state === 'unsent' || this.state === 'ended')) {
      this.state = 'none';
      return answered(text) as never;
    }
    if (this.state === 'ended') {
      return Promise.reject(new Error('a statement after the one that ended its transaction (it would run outside it)')) as never;
    }
    if (this.state === 'unsent' && last && isPromised(args)) {
      this.state = 'ended';
      databaseMetrics.statements.inc();
      return (send(...args) as Promise<unknown>).then((result) => {
        databaseMetrics.commits.inc();
        return result;
      }) as never;
    }
    if (this.state === 'unsent') {
      this.state = 'open';
      databaseMetrics.statements.inc();
      // pg sends a connection's queries one after another, so the statement goes after this one without an await
      // here. Nothing is open, so only a broken connection can refuse it, and then the statement fails with it.
      (send(BEGIN) as Promise<unknown>).catch(() => undefined);
    }
    if (text === COMMIT || text === ROLLBACK) {
      this.state = 'none';
      if (text === COMMIT) databaseMetrics.commits.inc();
    }
    databaseMetrics.statements.inc();
    return send(...args);
  }
}

/** pg answers with a promise unless it is given a callback or a submittable (a cursor, a stream). */
const isPromised = (args: readonly unknown[]): boolean =>
  args.length <= 2 && !args.some((a) => typeof a === 'function') && typeof (args[0] as { submit?: unknown }).submit !== 'function';
