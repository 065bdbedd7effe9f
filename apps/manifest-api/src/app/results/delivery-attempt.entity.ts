import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AttemptOutcome, AttemptResponse } from '@owd/events';
import { SERVICE_SCHEMA } from '../../database/schema';

/** One delivery.attempted, as the result panel shows it. */
@Entity({ schema: SERVICE_SCHEMA, name: 'delivery_attempts' })
export class DeliveryAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column({ name: 'result_id', type: 'text' }) resultId!: string;
  @Column({ name: 'delivery_id', type: 'uuid' }) deliveryId!: string;
  @Column('int') revision!: number;
  @Column('int') attempt!: number;
  @Column({ name: 'target_host', type: 'text' }) targetHost!: string;
  @Column({ type: 'int', nullable: true }) status!: number | null;
  @Column({ name: 'duration_ms', type: 'int' }) durationMs!: number;
  @Column('text') outcome!: AttemptOutcome;
  @Column({ name: 'error_class', type: 'text', nullable: true }) errorClass!: string | null;
  @Column({ name: 'error_message', type: 'text', nullable: true }) errorMessage!: string | null;
  @Column({ name: 'attempted_at', type: 'timestamptz' }) attemptedAt!: Date;
  @Column({ name: 'ended_at', type: 'timestamptz' }) endedAt!: Date;
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true }) nextAttemptAt!: Date | null;
  @Column('boolean') final!: boolean;
  /** The receiver's answer as the dispatcher kept it; null without an answer or before it was recorded. */
  @Column({ type: 'jsonb', nullable: true }) response!: AttemptResponse | null;
}
