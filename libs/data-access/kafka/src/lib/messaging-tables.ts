/**
 * SQL for the tables every service's first migration creates in its own schema:
 * the transactional outbox and the processed-events (inbox) table that makes handlers idempotent.
 */
export function messagingTablesUp(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}".outbox (
       id bigserial PRIMARY KEY,
       topic text NOT NULL,
       message_key text NOT NULL,
       value text NOT NULL,
       headers jsonb NOT NULL DEFAULT '{}'::jsonb,
       created_at timestamptz NOT NULL DEFAULT now(),
       published_at timestamptz
     )`,
    `CREATE INDEX outbox_unpublished ON "${schema}".outbox (id) WHERE published_at IS NULL`,
    `CREATE TABLE "${schema}".processed_events (
       consumer text NOT NULL,
       event_id uuid NOT NULL,
       processed_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (consumer, event_id)
     )`,
  ];
}

export function messagingTablesDown(schema: string): string[] {
  return [`DROP TABLE "${schema}".processed_events`, `DROP TABLE "${schema}".outbox`];
}
