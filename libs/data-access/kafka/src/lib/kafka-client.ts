import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { Logger } from '@nestjs/common';
import type { KafkaConnectionSettings } from './kafka.options';
// Every kafkajs client of the services goes through here: the request queue stops polling when idle.
import './request-queue-timers';

const logger = new Logger('kafkajs');

/** kafkajs logs through the service's structured logger instead of its own console output. */
function logCreator() {
  return ({ level, log }: LogEntry) => {
    const { message, ...extra } = log;
    const line = { msg: message, ...extra };
    if (level === logLevel.ERROR) logger.error(line);
    else if (level === logLevel.WARN) logger.warn(line);
    else logger.debug(line);
  };
}

export function createKafka(settings: KafkaConnectionSettings): Kafka {
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    logLevel: logLevel.WARN,
    logCreator,
    retry: { initialRetryTime: 200, retries: 8 },
  });
}
