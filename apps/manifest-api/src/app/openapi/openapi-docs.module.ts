import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { MessagingService, Outbox } from '@owd/kafka';
import { loggerParams } from '@owd/platform';
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
    // The logger's settings, which configure's request logger reads: no request is served, so none is logged.
    { provide: PARAMS_PROVIDER_TOKEN, useValue: loggerParams('manifest-api', 'silent', { write: () => undefined }, { requests: false }) },
  ],
  exports: [DataSource, Outbox, MessagingService, ConfigService, PARAMS_PROVIDER_TOKEN],
})
class StandInInfrastructureModule {}

/** The API's feature modules on stand-in infrastructure: the app the OpenAPI export describes. */
@Module({ imports: [StandInInfrastructureModule, ...API_MODULES] })
export class OpenApiDocsModule {}
