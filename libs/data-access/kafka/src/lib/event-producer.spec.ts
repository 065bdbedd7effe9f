import { CloudEvent, Kafka as CloudEventsKafka, type KafkaMessage } from 'cloudevents';
import { createEnvelope, DeliveryRetryDue, GoalChanged, type EventDefinition } from '@owd/events';
import { toMessage } from './event-producer';
import { TopicNamer } from './topic-namer';

const retryDue = { deliveryId: '5b0f4c5e-8d7a-4a59-9a40-0d4f1f7c2a11', resultId: 'res_1', attempt: 2, dueAt: '2026-11-21T10:01:00.000Z' };

function readBack(definition: EventDefinition, payload: object) {
  const envelope = createEnvelope(definition, payload, { correlationId: 'c', now: new Date('2026-11-21T10:00:00.500+02:00') });
  const message = toMessage(new TopicNamer('staging.'), definition, envelope);
  const value = String(message.value);
  const kafkaMessage: KafkaMessage<string> = { headers: message.headers, key: message.key, value, body: value };
  const event = CloudEventsKafka.toEvent(kafkaMessage);
  if (!(event instanceof CloudEvent)) throw new Error('expected one binary-mode CloudEvent');
  return { envelope, message, event };
}

describe('toMessage: CloudEvents Kafka binding, binary content mode', () => {
  it('maps the envelope to ce_ headers that the CloudEvents SDK reads as a valid event whose data is the envelope', () => {
    const { envelope, message, event } = readBack(DeliveryRetryDue, retryDue);
    expect(message.headers).toMatchObject({ 'event-type': 'delivery.retry-due', 'schema-version': '1', 'event-id': envelope.eventId });
    expect(event.validate()).toBe(true);
    expect(event).toMatchObject({
      specversion: '1.0', id: envelope.eventId, source: '/outbound-delivery/retry-scheduler', type: 'delivery.retry-due',
      time: '2026-11-21T08:00:00.500Z', subject: 'res_1', datacontenttype: 'application/json', partitionkey: 'res_1',
    });
    expect(event.data).toEqual(JSON.parse(JSON.stringify(envelope)));
  });

  it('names the producing service as the source and the goal as the subject of goal events', () => {
    const { event } = readBack(GoalChanged, {
      goalId: '0d8f6c2a-3b1e-4c55-9a77-21f0e3c4b5a6', workspaceId: '6a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d', version: 1, deleted: false,
      name: 'g', sourceLang: 'en', recipientUrl: null, deliveryMode: 'test', secretCiphertext: null, sendImmediately: true,
      secondLanguageEnabled: false, secondLanguage: null, publishPolicy: null, fieldDefaults: {},
    });
    expect(event).toMatchObject({ source: '/outbound-delivery/manifest-api', type: 'goal.changed', subject: '0d8f6c2a-3b1e-4c55-9a77-21f0e3c4b5a6' });
  });
});
