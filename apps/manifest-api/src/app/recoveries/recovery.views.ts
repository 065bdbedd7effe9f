import { ApiProperty } from '../openapi/api-docs';
import { LastErrorView } from '../results/result.views';

/** A delivery whose attempts are over without success, as the failed-deliveries view lists it. */
export class FailedDeliveryView {
  @ApiProperty({ example: 'res_4f1c0b7e9a2d4c6f8e1a3b5c7d9e0f12' }) resultId!: string;
  @ApiProperty({ format: 'uuid' }) goalId!: string;
  @ApiProperty({ example: 'Economy desk' }) goalName!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Rates rise again' }) title!: string | null;
  @ApiProperty() revision!: number;
  @ApiProperty({ format: 'uuid', description: 'X-SH-Delivery of the failed delivery' }) deliveryId!: string;
  @ApiProperty({ format: 'date-time', description: 'When the delivery failed' }) failedAt!: string;
  @ApiProperty({ type: String, nullable: true, example: 'attempt 1: the receiver answered 422; not retried automatically' }) reason!: string | null;
  @ApiProperty({ type: LastErrorView, nullable: true }) lastError!: LastErrorView | null;
}

export class FailedDeliveryPageView {
  @ApiProperty({ type: [FailedDeliveryView], description: 'Newest failure first' }) data!: FailedDeliveryView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' }) nextCursor!: string | null;
}

export class RecoveryProgressView {
  @ApiProperty({ description: 'Delivered since the recovery' }) delivered!: number;
  @ApiProperty({ description: 'Failed again' }) failed!: number;
  @ApiProperty({ description: 'Still being retried' }) pending!: number;
}

/** One bulk recovery: what it asked for, how many deliveries it retried, and how they are doing. */
export class RecoveryView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) goalId!: string | null;
  @ApiProperty({ format: 'date-time' }) since!: string;
  @ApiProperty({ type: String, nullable: true, example: 'server_error' }) errorClass!: string | null;
  @ApiProperty({ description: 'Failed deliveries this recovery retried (each as a new manual series with the same bytes)', example: 12 }) count!: number;
  @ApiProperty({ description: 'Matching failed deliveries left for another run (a recovery retries at most 1000)', example: 0 }) remaining!: number;
  @ApiProperty({ type: RecoveryProgressView }) progress!: RecoveryProgressView;
  @ApiProperty({ description: 'True once none of its deliveries is still being retried' }) done!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}
