import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { collectDefaultMetrics, register } from 'prom-client';
import { DatabaseModule, type ServiceDatabaseOptions } from '@owd/database';
import { KafkaModule } from '@owd/kafka';
import { HealthController } from './health.controller';
import { loggerParams } from './logger-params';
import { MetricsController } from './metrics.controller';
import { ReadinessIndicators } from './readiness';
import { ConfigurationError, validateConfig } from './validate-config';
import { exitOnStartupFailure } from './bootstrap';
import { otlpExporter, Tracing, type OtlpSettings } from './tracing';

export interface PlatformOptions<T extends object> {
  /** Service name: log field, metrics label, Kafka client id, trace resource `service.name`. */
  service: string;
  config: new () => T;
  database: ServiceDatabaseOptions;
}

let defaultMetricsStarted = false;

/** Bad configuration stops a service with one line naming the variables; tests get the error instead. */
function validateOrExit<T extends object>(cls: new () => T, env: Record<string, unknown>): T {
  try {
    return validateConfig(cls)(env);
  } catch (err) {
    if (err instanceof ConfigurationError && process.env['NODE_ENV'] !== 'test') exitOnStartupFailure(err);
    throw err;
  }
}

/** Everything a service has in common: validated config, JSON logs, database, Kafka, /health, /metrics, tracing. */
@Module({})
export class PlatformModule {
  static forService<T extends object>(options: PlatformOptions<T>): DynamicModule {
    if (!defaultMetricsStarted) {
      register.setDefaultLabels({ service: options.service });
      // The event-loop delay histogram samples every 100 ms, not every 10 ms (prom-client's default): a
      // timer firing 100 times a second cost an idle service ~8 ms of CPU a second on these machines, and
      // nodejs_eventloop_lag_p99_seconds is as meaningful from 10 samples a second.
      collectDefaultMetrics({ eventLoopMonitoringPrecision: 100 });
      defaultMetricsStarted = true;
    }
    return {
      module: PlatformModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, cache: true, validate: (env) => validateOrExit(options.config, env) }),
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService) => loggerParams(options.service, config.get<string>('LOG_LEVEL') ?? 'info', undefined, {
            requests: config.get<boolean>('LOG_REQUESTS') ?? true,
          }),
        }),
        DatabaseModule.forService(options.database),
        KafkaModule.forService({ service: options.service, schema: options.database.schema }),
        TerminusModule,
      ],
      controllers: [HealthController, MetricsController],
      providers: [ReadinessIndicators, {
        // Created with the app, before any consumer, worker or request starts a span.
        provide: Tracing,
        inject: [ConfigService],
        useFactory: (config: ConfigService<OtlpSettings>) => Tracing.start(options.service, otlpExporter({
          OTEL_EXPORTER_OTLP_ENDPOINT: config.get('OTEL_EXPORTER_OTLP_ENDPOINT'),
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: config.get('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
        })),
      }],
    };
  }
}
