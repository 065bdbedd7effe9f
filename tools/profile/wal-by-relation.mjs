// What PostgreSQL writes to its WAL while something runs, by table or index and by kind of record (pg_walinspect):
// the rows, index entries, row locks and page images behind a delivery, where the server's CPU is spent per record.
//   node tools/profile/wal-by-relation.mjs [SECONDS, default 60] [START_SECONDS, default 0] [PER, default 1] [TOP, default 40]
// Start it beside a bench run; PER divides the figures (the number of deliveries in the window gives them per delivery).
// The server is PG_URL (default: the bench's, tools/postgres with PG_PORT 15433); its user must be allowed to create the
// extension pg_walinspect (PostgreSQL 15+; the embedded server has it). The WAL is read every 2 s as it is written, so
// segments a checkpoint recycles do not matter, and every database's relations are named while they exist (the bench
// drops its database at the end). Relations are grouped by schema and name across databases. Reading the WAL costs the
// server CPU every 2 s: take CPU figures from a run without it (steady prints the WAL's totals per delivery itself).
import pg from 'pg';

const [seconds = '60', startSeconds = '0', per = '1', top = '40'] = process.argv.slice(2);
const url = process.env.PG_URL ?? `postgres://postgres:postgres@127.0.0.1:${process.env.PG_PORT ?? 15433}/postgres`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');

/** `dbOid/relfilenode` → `schema.relation`, TOAST tables under their owner's name. */
const names = new Map();
async function nameRelations() {
  const dbs = (await admin.query(`SELECT oid, datname FROM pg_database WHERE datallowconn AND NOT datistemplate`)).rows;
  for (const { oid, datname } of dbs) {
    const client = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: `/${datname}` }).toString() });
    try {
      await client.connect();
      const { rows } = await client.query(
        `SELECT pg_relation_filenode(c.oid) AS node, coalesce(o.nspname || '.' || owner.relname || ' (TOAST' || CASE WHEN c.relkind = 'i' THEN ' index' ELSE '' END || ')',
                n.nspname || '.' || c.relname) AS name
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           LEFT JOIN pg_class owner ON owner.reltoastrelid = c.oid OR owner.reltoastrelid = (SELECT indrelid FROM pg_index WHERE indexrelid = c.oid)
           LEFT JOIN pg_namespace o ON o.oid = owner.relnamespace
          WHERE pg_relation_filenode(c.oid) IS NOT NULL`);
      for (const r of rows) names.set(`${oid}/${r.node}`, r.name);
    } catch {
      // A database dropped between the two queries: its relations were named at an earlier poll.
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

const totals = new Map();
let records = 0;
async function readSince(from) {
  const to = (await admin.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
  await nameRelations();
  // Nothing written since (a bench still starting its systems, or between phases): pg_walinspect finds no record
  // after `from` and refuses the read, so wait for the next turn from the same place.
  const { rows } = await admin.query(
    `SELECT reldatabase, relfilenode, resource_manager || '/' || record_type AS kind, count(*)::int AS n,
            sum(block_data_length + main_data_length)::bigint AS data, sum(block_fpi_length)::bigint AS fpi
       FROM pg_get_wal_block_info($1, $2) GROUP BY 1, 2, 3`, [from, to]).catch((err) => {
    if (/could not find a valid record/.test(err.message)) return { rows: null };
    throw err;
  });
  if (rows === null) return from;
  for (const r of rows) {
    const key = `${names.get(`${r.reldatabase}/${r.relfilenode}`) ?? `relfilenode ${r.relfilenode}`}\t${r.kind}`;
    const t = totals.get(key) ?? { n: 0, data: 0, fpi: 0 };
    t.n += r.n; t.data += Number(r.data); t.fpi += Number(r.fpi);
    totals.set(key, t);
  }
  const [{ n }] = (await admin.query('SELECT count(*)::int AS n FROM pg_get_wal_records_info($1, $2)', [from, to])).rows;
  records += n;
  return to;
}

await sleep(Number(startSeconds) * 1000);
await nameRelations();
const start = (await admin.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
let lsn = start;
const until = Date.now() + Number(seconds) * 1000;
while (Date.now() < until) {
  await sleep(Math.min(2000, Math.max(0, until - Date.now())));
  lsn = await readSince(lsn);
}
const [{ bytes }] = (await admin.query('SELECT pg_wal_lsn_diff($1, $2)::bigint AS bytes', [lsn, start])).rows;
await admin.end();

const d = Number(per);
const fmt = (v) => (v / d >= 100 ? (v / d).toFixed(0) : (v / d).toFixed(2));
console.log(`WAL ${start} → ${lsn}: ${fmt(Number(bytes))} bytes, ${fmt(records)} records${d === 1 ? '' : ` (each figure ÷ ${d})`}`);
console.log('block references by relation and record (a record can touch several blocks): count · data bytes · full-page-image bytes');
const rows = [...totals].sort((a, b) => b[1].data + b[1].fpi - (a[1].data + a[1].fpi)).slice(0, Number(top));
for (const [key, t] of rows) {
  const [rel, kind] = key.split('\t');
  console.log(`${fmt(t.n).padStart(9)} ${fmt(t.data).padStart(9)} ${fmt(t.fpi).padStart(8)}  ${rel}  ${kind}`);
}
