// Child process for the redelivery test: processes events and dies by SIGKILL at the exact moment it
// would commit the offset of the target event, i.e. after the handler's transaction committed and
// before Kafka knows. Earlier events of the topic are committed normally.
import type { Consumer } from 'kafkajs';
import { afterCommit } from '@owd/database';
import { createTestService, recordEffect } from './messaging-fixture';

async function main(): Promise<void> {
  const [url, brokers, prefix, group, targetDeliveryId] = process.argv.slice(2);
  const service = await createTestService(url, 'svc_b', brokers.split(','), prefix);
  let handledTarget = false;
  const makeConsumer = service.kafka.consumer.bind(service.kafka);
  service.kafka.consumer = (config) => {
    const consumer: Consumer = makeConsumer(config);
    const commit = consumer.commitOffsets.bind(consumer);
    consumer.commitOffsets = async (offsets) => {
      if (handledTarget) process.kill(process.pid, 'SIGKILL');
      return commit(offsets);
    };
    return consumer;
  };
  const record = recordEffect('svc_b', group);
  // Positions are committed every millisecond: the kill must still come only after the effect committed.
  await service.consumer(group, async (env, manager) => {
    await record(env, manager);
    // Only once the effect has committed: positions are also committed by a timer, which may fire while the
    // target's transaction is still open, and dying then would leave no effect at all.
    if ((env.payload as { deliveryId: string }).deliveryId === targetDeliveryId) afterCommit(manager, () => { handledTarget = true; });
  }, undefined, { commitOffsetsEveryMs: 1 }).start();
}

main().catch((err) => {
  process.stderr.write(String(err));
  process.exit(1);
});
