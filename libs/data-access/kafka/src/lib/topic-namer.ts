import { deadLetterTopic, type TopicName } from '@owd/events';

/** Maps logical topic names to broker topic names (deployment prefix) and back. */
export class TopicNamer {
  constructor(private readonly prefix: string) {}

  name(topic: TopicName): string {
    return `${this.prefix}${topic}`;
  }

  deadLetter(topic: TopicName): string {
    return `${this.prefix}${deadLetterTopic(topic)}`;
  }

  /** Deployments (and test runs) that share a cluster through prefixes must not share consumer groups. */
  group(groupId: string): string {
    return `${this.prefix}${groupId}`;
  }

  logical(brokerTopic: string): string {
    return brokerTopic.startsWith(this.prefix) ? brokerTopic.slice(this.prefix.length) : brokerTopic;
  }
}
