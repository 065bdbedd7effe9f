import { ApiProperty } from '../../openapi/api-docs';
import { IsString, Length, Matches } from 'class-validator';

/** Body of POST /api/workspaces and POST /api/workspaces/{id}/tokens. */
export class CreateNamedDto {
  @ApiProperty({ example: 'Newsroom', minLength: 1, maxLength: 200 })
  @IsString() @Length(1, 200) @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}
