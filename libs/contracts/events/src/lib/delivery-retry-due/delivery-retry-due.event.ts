import { IsInt, IsString, IsUUID, Max, Min, MinLength } from 'class-validator';
import { IsUtcTimestamp } from '../formats/format.decorators';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

/** A durable retry timer fired: the dispatcher makes attempt `attempt` of the delivery. */
export class DeliveryRetryDuePayload {
  @IsUUID() deliveryId!: string;
  @IsString() @MinLength(1) resultId!: string;
  @IsInt() @Min(2) @Max(3) attempt!: number;
  @IsUtcTimestamp() dueAt!: string;
}

export const DeliveryRetryDue = defineEvent({
  type: 'delivery.retry-due',
  topic: TOPICS.DELIVERY_RETRY_DUE,
  schemaVersion: 1,
  payloadClass: DeliveryRetryDuePayload,
  keyOf: (p: DeliveryRetryDuePayload) => p.resultId,
});
