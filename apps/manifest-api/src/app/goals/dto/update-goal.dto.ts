import { ApiPropertyOptional, OmitType, PartialType } from '../../openapi/api-docs';
import { IsBoolean, IsIn } from 'class-validator';
import { DELIVERY_MODES, type DeliveryMode } from '@owd/events';
import { OptionalNotNull } from '../../http/validators';
import { CreateGoalDto } from './create-goal.dto';

/** PATCH: an absent key is unchanged; null clears a nullable setting and is refused for the others. */
export class UpdateGoalDto extends PartialType(OmitType(CreateGoalDto, ['channel'] as const), { skipNullProperties: false }) {
  @ApiPropertyOptional({ enum: DELIVERY_MODES, description: 'production needs a recipient URL' })
  @OptionalNotNull() @IsIn(DELIVERY_MODES)
  deliveryMode?: DeliveryMode;

  @ApiPropertyOptional({ description: 'Can be switched on only after a successful Send test to the current URL (409 otherwise)' })
  @OptionalNotNull() @IsBoolean()
  sendImmediately?: boolean;
}
