import { PayloadInputError } from './payload-input.error';

/** The goal's second-language switch is on but the result has no content (or no code) for that language. */
export class SecondLanguageMissingError extends PayloadInputError {
  override readonly name = 'SecondLanguageMissingError';

  constructor(readonly lang: string | null) {
    super(
      'second_language_missing',
      lang === null
        ? 'second language version is on but the goal names no second language'
        : `second language version is on but the result has no "${lang}" content`,
    );
  }
}
