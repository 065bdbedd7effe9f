import { Client } from 'pg';

/**
 * Where one result stands in every service that has it, for a test that timed out waiting on it: manifest-api's
 * row and its outbox messages for the result, payload-builder's row, lifecycle and outbox, and what the database's
 * sessions are doing (a transaction left open holds its locks, and a partition waiting on one stalls silently).
 * States, numbers and times only, no content.
 */
export async function resultTrail(databaseUrl: string, resultId: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const read = async (label: string, sql: string, params: unknown[] = []): Promise<string> => {
    const rows = await client.query(sql, params).then((r) => r.rows, (err: Error) => [{ error: err.message }]);
    return `${label}: ${JSON.stringify(rows)}`;
  };
  try {
    return (await Promise.all([
      read('manifest-api result', `SELECT state, state_revision, state_reason, revision, approved_revision, updated_at, state_updated_at
        FROM manifest_api.results WHERE id = $1`, [resultId]),
      read('manifest-api outbox', `SELECT id, topic, created_at, published_at FROM manifest_api.outbox WHERE message_key = $1 ORDER BY id`, [resultId]),
      read('payload-builder result', `SELECT status, status_revision, status_reason, revision, upstream_revision, approved_revision, last_seq, updated_at
        FROM payload_builder.results WHERE result_id = $1`, [resultId]),
      read('payload-builder lifecycle', `SELECT seq, type, occurred_at FROM payload_builder.result_events WHERE result_id = $1 ORDER BY seq`, [resultId]),
      read('payload-builder outbox', `SELECT id, topic, created_at, published_at FROM payload_builder.outbox WHERE message_key = $1 ORDER BY id`, [resultId]),
      read('sessions not idle', `SELECT pid, state, wait_event_type, wait_event, now() - xact_start AS in_transaction, left(query, 160) AS query
        FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()`),
      read('locks waited for', `SELECT pid, locktype, mode, relation::regclass::text AS relation FROM pg_locks WHERE NOT granted`),
    ])).join('\n');
  } finally {
    await client.end();
  }
}
