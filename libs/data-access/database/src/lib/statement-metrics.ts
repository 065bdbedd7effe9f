import { Counter, register } from 'prom-client';

function counter(name: string, help: string): Counter {
  return (register.getSingleMetric(name) as Counter | undefined) ?? new Counter({ name, help });
}

/**
 * Round trips and commits to PostgreSQL, counted by the pools' client as it sends them (transaction-client.ts): the
 * bench divides them by deliveries (docs/performance.md, cost model).
 */
export const databaseMetrics = {
  statements: counter('owd_db_statements_total', 'Statements sent to PostgreSQL (each one round trip), transaction control included'),
  commits: counter('owd_db_commits_total', 'Transactions committed (each one a WAL flush)'),
};
