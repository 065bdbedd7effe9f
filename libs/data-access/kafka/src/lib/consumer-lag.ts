import { messagingMetrics } from './metrics';

type LagLabels = { group: string; topic: string; partition: string };

/**
 * `owd_consumer_lag` of one consumer group member: per partition it owns, the high watermark of the last
 * fetched batch minus the offset of the next message to process. Partitions a rebalance gave to another
 * member are dropped here, since that member reports them from then on (no stale series, no double count).
 */
export class ConsumerLag {
  private readonly owned = new Map<string, LagLabels>();

  constructor(private readonly group: string) {}

  /** `nextOffset`: the message about to be processed, or the last processed one + 1. */
  set(topic: string, partition: number, highWatermark: string, nextOffset: string): void {
    const labels = { group: this.group, topic, partition: String(partition) };
    this.owned.set(`${topic}:${partition}`, labels);
    const lag = BigInt(highWatermark) - BigInt(nextOffset);
    messagingMetrics.consumerLag.set(labels, lag > 0n ? Number(lag) : 0);
  }

  /** Keeps the partitions of `assignment` (topic → partitions) and forgets the others. */
  retain(assignment: Readonly<Record<string, readonly number[]>>): void {
    for (const [key, labels] of this.owned) {
      if (assignment[labels.topic]?.includes(Number(labels.partition))) continue;
      messagingMetrics.consumerLag.remove(labels);
      this.owned.delete(key);
    }
  }

  clear(): void {
    this.retain({});
  }
}
