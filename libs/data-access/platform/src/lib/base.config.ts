import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';

const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;
const toBool = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase());

/** Settings every service reads; each service's config class extends it (docs/operations.md). */
export class BaseServiceConfig {
  @IsInt() @Min(1) @Max(65535)
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  PORT!: number;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// connection URL' })
  DATABASE_URL!: string;

  @Transform(toList)
  @ArrayNotEmpty({ message: 'KAFKA_BROKERS must list at least one host:port' })
  @Matches(/^[A-Za-z0-9.\-[\]:]+:\d+$/, { each: true, message: 'KAFKA_BROKERS entries must be host:port' })
  KAFKA_BROKERS!: string[];

  @IsString() @Matches(/^[A-Za-z0-9._-]*$/, { message: 'KAFKA_TOPIC_PREFIX may hold letters, digits, ".", "_" and "-"' })
  KAFKA_TOPIC_PREFIX = '';

  /** How long a consumer group waits for a silent (e.g. killed) member before reassigning its partitions. */
  @IsInt() @Min(6000) @Max(300_000)
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  KAFKA_SESSION_TIMEOUT_MS = 30_000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace'])
  LOG_LEVEL = 'info';

  @Transform(toBool) @IsBoolean()
  MIGRATE_ON_START = false;
}
