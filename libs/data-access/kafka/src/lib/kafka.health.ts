import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { Admin, Kafka } from 'kafkajs';
import { KAFKA_CLIENT } from './kafka.tokens';

/**
 * Healthy when the cluster answers a metadata request within the timeout. `describeCluster` asks for the metadata of
 * no topic (patches/kafkajs+2.2.4.patch; kafkajs asked for every topic of the cluster), so a probe every few seconds
 * costs the broker and the pod the same whatever the size of the cluster they share.
 */
@Injectable()
export class KafkaHealthIndicator implements OnApplicationShutdown {
  private admin?: Admin;
  private connecting?: Promise<void>;

  constructor(@Inject(KAFKA_CLIENT) private readonly kafka: Kafka, private readonly indicator: HealthIndicatorService) {}

  async isHealthy(key = 'kafka', timeoutMs = 3000): Promise<HealthIndicatorResult> {
    const check = this.indicator.check(key);
    try {
      this.admin ??= this.kafka.admin();
      this.connecting ??= this.admin.connect();
      const cluster = await Promise.race([
        this.connecting.then(() => (this.admin as Admin).describeCluster()),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
      ]);
      return check.up({ brokers: cluster.brokers.length });
    } catch (err) {
      this.connecting = undefined;
      return check.down({ message: (err as Error).message });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
  }
}
