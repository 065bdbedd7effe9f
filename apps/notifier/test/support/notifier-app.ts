import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { EventProducer } from '@owd/kafka';
import { NoticesService } from '../../src/app/notices/notices.service';

export interface NotifierInstance {
  app: INestApplication;
  notices: NoticesService;
  producer: EventProducer;
  dataSource: DataSource;
}

/**
 * One notifier instance. Set process.env first: ConfigModule validates it when app.module is first imported.
 * Several instances in one process share one database and consumer group, like replicas.
 */
export async function startNotifier(): Promise<NotifierInstance> {
  const { AppModule } = await import('../../src/app/app.module');
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
  await app.init();
  return { app, notices: app.get(NoticesService), producer: app.get(EventProducer), dataSource: app.get(DataSource) };
}
