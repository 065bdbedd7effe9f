export type PayloadInputErrorCode =
  | 'invalid_timestamp'
  | 'invalid_number'
  | 'article_without_body'
  | 'workflow_execution_mismatch'
  | 'revision_not_increased'
  | 'unknown_block_type'
  | 'invalid_field_value'
  | 'second_language_missing'
  | 'required_field_missing'
  | 'body_too_large';

/** The input cannot become a valid payload; the caller parks the event with this reason instead of sending. */
export class PayloadInputError extends Error {
  override readonly name: string = 'PayloadInputError';

  constructor(
    readonly code: PayloadInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}
