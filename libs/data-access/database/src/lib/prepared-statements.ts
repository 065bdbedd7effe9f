import { Client } from 'pg';

/** Names are never reused in a process: a connection keeps what it prepared under a name until it closes. */
let issued = 0;

/**
 * Statements the services send again and again run as named prepared statements: PostgreSQL parses and
 * plans each one once per connection instead of at every call, and the driver sends less. On the hot path,
 * planning alone was ~2 ms of PostgreSQL's CPU per delivery (the dispatcher's claim, 0.65 ms a call), and an
 * unnamed parameterised query costs the driver about twice a named one's CPU (docs/performance.md).
 *
 * The services' SQL is written with parameters, so a statement's text repeats exactly. A text gets a name
 * after it has been sent `threshold` times (one-off texts never do, as with JDBC's prepareThreshold), and at
 * most `limit` texts are named per process, so the statements each connection keeps stay bounded
 * whatever SQL an admin route builds. Statements without parameters (transaction control) are left alone.
 */
export class StatementNames {
  private readonly uses = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(readonly threshold = 3, readonly limit = 400) {}

  /** The name to send `text` under, or undefined while it has not repeated enough (or the limit is reached). */
  nameFor(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined || this.names.size >= this.limit) return named;
    const uses = (this.uses.get(text) ?? 0) + 1;
    if (uses < this.threshold) {
      // Only counts: forgetting them all now and then keeps one-off texts from piling up.
      if (this.uses.size >= 10_000) this.uses.clear();
      this.uses.set(text, uses);
      return undefined;
    }
    this.uses.delete(text);
    return this.renew(text);
  }

  /** A new name for `text`: every connection prepares it again under that name at its next use. */
  renew(text: string): string {
    const name = `owd_${++issued}`;
    this.names.set(text, name);
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

/** PostgreSQL's answer when a prepared statement's result columns changed under it (a table altered by a migration). */
const CACHED_PLAN_CHANGED = '0A000';

/** One process-wide naming, shared by every connection of every pool. */
const processNames = new StatementNames();

/**
 * pg's Client, sending repeated parameterised statements by name (see StatementNames). Given to the pool
 * as its `Client` (dataSourceOptions); TypeORM calls `query(text, values)` and awaits the promise.
 */
export class PreparingClient extends Client {
  static names: StatementNames = processNames;

  override query(...args: unknown[]): never {
    const [text, values] = args;
    const send = super.query.bind(this) as (...a: unknown[]) => never;
    if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return send(...args);
    const name = PreparingClient.names.nameFor(text);
    if (name === undefined) return send(text, values);
    return (send({ name, text, values }) as Promise<unknown>).catch((err: Error & { code?: string }) => {
      // A migration changed a table under the statement: PostgreSQL refuses it on every connection that
      // prepared it. The text gets a new name, so the caller's retry prepares it afresh (the old one stays
      // until the connection closes).
      if (err.code === CACHED_PLAN_CHANGED) PreparingClient.names.renew(text);
      throw err;
    }) as never;
  }
}
