import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { SERVICE_SCHEMA } from '../../database/schema';

/** A request the development sink received for a goal (Test mode deliveries and Send tests). */
@Entity({ schema: SERVICE_SCHEMA, name: 'dev_sink_requests' })
export class DevSinkRequestEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column({ name: 'goal_id', type: 'uuid' }) goalId!: string;
  @Column('text') method!: string;
  /** Lower-case names; Authorization is stored redacted, since it carries the goal's secret. */
  @Column({ type: 'jsonb' }) headers!: Record<string, string>;
  @Column({ type: 'bytea' }) body!: Buffer;
  @Column({ name: 'received_at', type: 'timestamptz' }) receivedAt!: Date;
}
