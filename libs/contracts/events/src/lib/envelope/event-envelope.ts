import 'reflect-metadata';
import { IsInt, IsObject, IsOptional, IsString, IsUUID, Min, MinLength } from 'class-validator';
import { IsUtcTimestamp } from '../formats/format.decorators';

/** The wrapper of every event on every topic (domain-driven-hexagon's domain event base). */
export class EventEnvelope<T extends object = object> {
  @IsUUID()
  eventId!: string;

  @IsString()
  @MinLength(1)
  type!: string;

  @IsInt()
  @Min(1)
  schemaVersion!: number;

  @IsUtcTimestamp()
  occurredAt!: string;

  /** The id of the request or result that started the chain; the same on every event it caused. */
  @IsString()
  @MinLength(1)
  correlationId!: string;

  /** The event id (or request id) that directly caused this one; null for a chain's first event. */
  @IsOptional()
  @IsString()
  causationId!: string | null;

  @IsString()
  @MinLength(1)
  key!: string;

  @IsObject()
  payload!: T;
}
