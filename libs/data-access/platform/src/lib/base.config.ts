import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsString, IsUrl, Matches, Max, Min, ValidateIf } from 'class-validator';

import { envBool, envInt, envList } from './env-transforms';

const OTLP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

/** Settings every service reads; each service's config class extends it (docs/operations.md). */
export class BaseServiceConfig {
  @IsInt() @Min(1) @Max(65535)
  @Transform(envInt)
  PORT!: number;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// connection URL' })
  DATABASE_URL!: string;

  @Transform(envList)
  @ArrayNotEmpty({ message: 'KAFKA_BROKERS must list at least one host:port' })
  @Matches(/^[A-Za-z0-9.\-[\]:]+:\d+$/, { each: true, message: 'KAFKA_BROKERS entries must be host:port' })
  KAFKA_BROKERS!: string[];

  @IsString() @Matches(/^[A-Za-z0-9._-]*$/, { message: 'KAFKA_TOPIC_PREFIX may hold letters, digits, ".", "_" and "-"' })
  KAFKA_TOPIC_PREFIX = '';

  /** How long a consumer group waits for a silent (e.g. killed) member before reassigning its partitions. */
  @IsInt() @Min(6000) @Max(300_000)
  @Transform(envInt)
  KAFKA_SESSION_TIMEOUT_MS = 30_000;

  /**
   * How long a consumer that has caught up with its partition waits before it fetches again, so the messages that
   * arrive meanwhile come in one fetch and one transaction (fewer statements, commits and Kafka requests per
   * delivery; docs/performance.md, twelfth round). A message waits at most this long at each hop, and only when
   * the one before it was handled moments ago; an idle consumer stays in the broker's long poll. 0: fetch at once.
   */
  @IsInt() @Min(0) @Max(1000)
  @Transform(envInt)
  KAFKA_CONSUMER_LINGER_MS = 20;

  /**
   * How long a consumed event id is remembered to recognise a copy. A copy comes within seconds to minutes (a
   * redelivery before the offset commit, a relay that died before marking its rows); keep it well above that.
   */
  @IsInt() @Min(60_000)
  @Transform(envInt)
  PROCESSED_EVENTS_RETAIN_MS = 24 * 3_600_000;

  /**
   * How long published outbox rows are kept for inspection before they are purged. 0 (the default): deleted as they
   * are marked published, which spares PostgreSQL a second version of every row; Kafka keeps the events.
   */
  @IsInt() @Min(0)
  @Transform(envInt)
  OUTBOX_RETAIN_MS = 0;

  /** Repeated statements as named prepared statements (@owd/database prepared-statements.ts); off behind a pooler that cannot keep them. */
  @IsIn(['on', 'off'], { message: 'DATABASE_PREPARED_STATEMENTS must be on or off' })
  DATABASE_PREPARED_STATEMENTS = 'on';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace'])
  LOG_LEVEL = 'info';

  /**
   * The request logger: a line per HTTP request, `request_id` on every line written while one is handled, and the
   * X-Request-Id it echoes. false where an ingress in front of the API writes the access log already (docs/operations.md).
   */
  @Transform(envBool) @IsBoolean()
  LOG_REQUESTS = true;

  @Transform(envBool) @IsBoolean()
  MIGRATE_ON_START = false;

  /** OTLP/HTTP collector (traces go to `<url>/v1/traces`); empty, with the next one empty too: tracing off. */
  @ValidateIf((c: BaseServiceConfig) => c.OTEL_EXPORTER_OTLP_ENDPOINT !== '')
  @IsUrl(OTLP_URL, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be empty or an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT = '';

  /** Full URL for traces only; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  @ValidateIf((c: BaseServiceConfig) => c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== '')
  @IsUrl(OTLP_URL, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be empty or an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = '';
}
