import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { MessagingService, Outbox } from '@owd/kafka';
import { API_MODULES } from '../api-modules';

/** Placeholder values: the services are built but never called while the document is generated. */
const DOCS_CONFIG = {
  ADMIN_TOKEN: 'openapi-export-placeholder-admin-token',
  SECRET_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
  ALLOWED_TARGET_CIDRS: '',
  RATE_LIMIT_PER_MINUTE: 600,
  DEV_SINK_ENABLED: false,
};

/** Stands in for the database and Kafka, so the OpenAPI document can be generated without either. */
@Global()
@Module({
  providers: [
    { provide: DataSource, useValue: {} },
    { provide: Outbox, useValue: {} },
    { provide: MessagingService, useValue: { consume: () => undefined } },
    { provide: ConfigService, useValue: new ConfigService(DOCS_CONFIG) },
  ],
  exports: [DataSource, Outbox, MessagingService, ConfigService],
})
class StandInInfrastructureModule {}

/** The API's feature modules on stand-in infrastructure: the app the OpenAPI export describes. */
@Module({ imports: [StandInInfrastructureModule, ...API_MODULES] })
export class OpenApiDocsModule {}
