import { faultInfra } from './infra';

/**
 * Jest global setup of the fault suite: its own broker and database (it restarts them), whatever
 * KAFKA_BROKERS / DATABASE_URL say, so the faults never touch a shared server.
 */
export default function globalSetup(): void {
  faultInfra.startAllSync();
  Object.assign(process.env, { KAFKA_BROKERS: faultInfra.brokers, TEST_DATABASE_URL: faultInfra.adminDatabaseUrl, NODE_ENV: 'test' });
}
