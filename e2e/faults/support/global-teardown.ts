import { faultInfra } from './infra';

/**
 * Jest global teardown of the fault suite: the broker and the database it started for itself are stopped, so a
 * run leaves nothing listening on the suite's ports and the next run on the same machine starts cleanly.
 */
export default async function globalTeardown(): Promise<void> {
  await faultInfra.stopKafka();
  await faultInfra.stopPostgres();
}
