import 'reflect-metadata';
import { EventProducer, MessagingService, Outbox } from '@owd/kafka';
import { SendTestController } from './send-test.controller';
import { SendTestService } from './send-test.service';

describe('Send test and delivery.attempted', () => {
  // docs/asyncapi.yaml says delivery.attempted never carries a Send test (its answer is the HTTP response);
  // the asyncapi spec holds the document to that, and this holds the code: Send test has no way to publish.
  it.each([['SendTestService', SendTestService], ['SendTestController', SendTestController]])('%s is built without any event publisher', (_name, cls) => {
    const dependencies: unknown[] = Reflect.getMetadata('design:paramtypes', cls) ?? [];
    expect(dependencies.length).toBeGreaterThan(0);
    for (const publisher of [Outbox, EventProducer, MessagingService]) expect(dependencies).not.toContain(publisher);
  });
});
