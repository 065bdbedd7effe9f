import { PayloadInputError } from './payload-input.error';

/** A required receiver field has no value: the result goes back to Needs approval instead of being sent (§3). */
export class RequiredFieldMissingError extends PayloadInputError {
  override readonly name = 'RequiredFieldMissingError';

  constructor(readonly keys: string[]) {
    super('required_field_missing', `required receiver fields without a value: ${keys.join(', ')}`);
  }
}
