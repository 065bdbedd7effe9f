import { getMetadataArgsStorage } from 'typeorm';
import { databaseMetrics, StatementMetricsSubscriber } from './statement-metrics';

async function value(counter: typeof databaseMetrics.statements): Promise<number> {
  return (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);
}

describe('StatementMetricsSubscriber', () => {
  it('is a subscriber TypeORM takes from the options (it keeps only classes decorated with @EventSubscriber)', () => {
    expect(getMetadataArgsStorage().filterSubscribers([StatementMetricsSubscriber])).toHaveLength(1);
  });

  it('counts each statement, and a commit only when the outermost transaction commits', async () => {
    const subscriber = new StatementMetricsSubscriber();
    const [statements, commits] = [await value(databaseMetrics.statements), await value(databaseMetrics.commits)];
    subscriber.beforeQuery();
    subscriber.beforeQuery();
    subscriber.afterTransactionCommit({ queryRunner: { isTransactionActive: true } } as never);
    subscriber.afterTransactionCommit({ queryRunner: { isTransactionActive: false } } as never);
    expect(await value(databaseMetrics.statements)).toBe(statements + 2);
    expect(await value(databaseMetrics.commits)).toBe(commits + 1);
  });
});
