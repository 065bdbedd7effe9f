import type { DataSource } from 'typeorm';

/** Creates the service schema if needed and applies pending migrations; returns their names. */
export async function runMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return applied.map((m) => m.name);
}

/** Names of migrations the database has not applied yet. */
export async function pendingMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  const [{ exists }] = await dataSource.query(
    `SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'migrations') AS exists`,
    [schema],
  );
  const known = dataSource.migrations.map((m) => m.name ?? m.constructor.name);
  if (!exists) return known;
  const rows: { name: string }[] = await dataSource.query(`SELECT name FROM "${schema}".migrations`);
  const done = new Set(rows.map((r) => r.name));
  return known.filter((name) => !done.has(name));
}

export class SchemaBehindError extends Error {
  constructor(schema: string, pending: string[]) {
    super(`database schema "${schema}" is behind: pending migrations ${pending.join(', ')}; run the migrate command first`);
  }
}
