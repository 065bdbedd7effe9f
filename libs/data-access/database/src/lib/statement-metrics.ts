import { Counter, register } from 'prom-client';
import { EventSubscriber, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';

function counter(name: string, help: string): Counter {
  return (register.getSingleMetric(name) as Counter | undefined) ?? new Counter({ name, help });
}

/** Round trips and commits to PostgreSQL: the bench divides them by deliveries (docs/performance.md, cost model). */
export const databaseMetrics = {
  statements: counter('owd_db_statements_total', 'Statements sent to PostgreSQL (each one round trip), transaction control included'),
  commits: counter('owd_db_commits_total', 'Transactions committed (each one a WAL flush)'),
};

/** Counts every statement and every outermost commit that goes through TypeORM. */
@EventSubscriber()
export class StatementMetricsSubscriber implements EntitySubscriberInterface {
  beforeQuery(): void {
    databaseMetrics.statements.inc();
  }

  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    if (!queryRunner.isTransactionActive) databaseMetrics.commits.inc();
  }
}
