// The signature scheme and the receiver-side checks live in the installable @owd/receiver package
// (libs/receiver), so the services sign and verify with exactly what customers install.
export {
  BEARER_SCHEME,
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  formatTimestamp,
  JSON_CONTENT_TYPE,
  sign,
  SIGNATURE_PREFIX,
  verify,
  verifyBearer,
} from '@owd/receiver';
export type {
  BearerFailureReason,
  BearerResult,
  DeliveryHeaderName,
  HeaderGetter,
  HeaderRecord,
  HeaderSource,
  RawBody,
  UnixTimestamp,
  VerifyFailureReason,
  VerifyOptions,
  VerifyResult,
} from '@owd/receiver';
export { buildDeliveryHeaders } from './lib/delivery-headers';
export type { DeliveryHeaderInput } from './lib/delivery-headers';
