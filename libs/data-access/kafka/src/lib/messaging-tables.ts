import type { MigrationInterface, QueryRunner } from 'typeorm';

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

/**
 * A migration every service applies to its own schema: an index on processed_events' age, so the consumers'
 * retention purge (EventConsumer) deletes old ids without reading the whole table.
 */
export function processedEventsRetention(schema: string): new () => MigrationInterface {
  return class ProcessedEventsRetention1795478400000 implements MigrationInterface {
    name = 'ProcessedEventsRetention1795478400000';

    async up(runner: QueryRunner): Promise<void> {
      await runner.query(`CREATE INDEX processed_events_age ON "${schema}".processed_events (processed_at)`);
    }

    async down(runner: QueryRunner): Promise<void> {
      await runner.query(`DROP INDEX "${schema}".processed_events_age`);
    }
  };
}

/**
 * A migration every service applies to its own schema: outbox rows up to a page's size are stored as they are.
 * A message lives in the outbox for about a second (the relay publishes it from memory after the commit and then
 * deletes its row), yet PostgreSQL compressed every row over 2 KB on insert (a `delivery.requested` carries its body
 * in base64, which compresses badly, so the attempt was mostly wasted). With `toast_tuple_target` at its maximum a
 * row under ~8 KB is written uncompressed in the table itself; a larger one is still compressed and moved out of
 * line as before. Only the storage of rows written from now on changes: older code reads and writes the table as
 * it did.
 */
export function outboxRowsUncompressed(schema: string): new () => MigrationInterface {
  return class OutboxRowsUncompressed1795910400000 implements MigrationInterface {
    name = 'OutboxRowsUncompressed1795910400000';

    async up(runner: QueryRunner): Promise<void> {
      await runner.query(`ALTER TABLE "${schema}".outbox SET (toast_tuple_target = 8160)`);
    }

    async down(runner: QueryRunner): Promise<void> {
      await runner.query(`ALTER TABLE "${schema}".outbox RESET (toast_tuple_target)`);
    }
  };
}
