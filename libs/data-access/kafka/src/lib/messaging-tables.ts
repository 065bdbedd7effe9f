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
