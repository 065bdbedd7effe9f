/** What a service tells the Kafka module about itself. */
export interface KafkaServiceOptions {
  /** Service name: client id, consumer group prefix and metrics label. */
  service: string;
  /** PostgreSQL schema that holds this service's outbox and processed-events tables. */
  schema: string;
}

export const KAFKA_SERVICE_OPTIONS = Symbol('KAFKA_SERVICE_OPTIONS');

/** The Kafka settings every service reads from its validated configuration. */
export interface KafkaConnectionSettings {
  brokers: string[];
  clientId: string;
}
