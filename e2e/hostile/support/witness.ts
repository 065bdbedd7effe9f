import type { Client } from 'pg';
import type { TestReceiver } from '@owd/testing';

/** Columns that change without a request changing anything: the token's last use, the relay's publish mark. */
const VOLATILE = ['last_used_at', 'published_at'];

export interface Snapshot {
  /** Per table of the schema: row count and a hash of every row (the outbox included). */
  tables: Record<string, string>;
  /** Requests each decoy server has received. */
  decoys: number[];
}

/**
 * Sees whether a refused request left any trace: a row written or changed in the service's schema (its
 * outbox is where every event starts, in the same transaction), or a request at a decoy server.
 */
export class Witness {
  constructor(private readonly db: Client, private readonly schema: string, private readonly decoys: readonly TestReceiver[]) {}

  async snapshot(): Promise<Snapshot> {
    const { rows: names } = await this.db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
      [this.schema],
    );
    const row = `(to_jsonb(t) - ${VOLATILE.map((c) => `'${c}'`).join(' - ')})::text`;
    const tables: Record<string, string> = {};
    for (const { name } of names) {
      const { rows } = await this.db.query<{ n: number; h: string }>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(${row}, E'\\n' ORDER BY ${row}), '')) AS h FROM "${this.schema}"."${name}" t`,
      );
      tables[name] = `${rows[0].n} rows, ${rows[0].h}`;
    }
    return { tables, decoys: this.decoys.map((d) => d.requests.length) };
  }

  /** Runs `act` and expects it to leave no trace: no row written or changed, no outbox entry, no decoy request. */
  async expectNoTrace<T>(act: () => Promise<T>): Promise<T> {
    const before = await this.snapshot();
    const result = await act();
    expect(await this.snapshot()).toEqual(before);
    return result;
  }
}
