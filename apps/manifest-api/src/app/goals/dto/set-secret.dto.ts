import { ApiProperty } from '../../openapi/api-docs';
import { IsString, Matches } from 'class-validator';

/** Printable ASCII without spaces: it travels in `Authorization: Bearer` and keys the HMAC. */
export const SECRET_PATTERN = /^[\x21-\x7e]{16,256}$/;

export class SetSecretDto {
  @ApiProperty({ writeOnly: true, minLength: 16, maxLength: 256, pattern: SECRET_PATTERN.source, description: 'Never shown again' })
  @IsString({ message: 'secret must be a string' })
  @Matches(SECRET_PATTERN, { message: 'secret must be 16 to 256 printable ASCII characters without spaces' })
  secret!: string;
}
