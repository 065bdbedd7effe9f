/**
 * What the running API has for its OpenAPI decorators: webpack.config.js puts this module in the place of api-docs.ts,
 * which the controllers and DTOs import them from (tests and the document's generation get `@nestjs/swagger`'s own).
 *
 * The decorators only record what the OpenAPI document says, and the document is docs/openapi.json, generated from them
 * by the tests (openapi.spec.ts) and served from that file (openapi-ui.ts). So at run time they record nothing, and a
 * pod does not hold the package (~100 modules with lodash's full build and its document builders, ~2 MiB of heap).
 * `PartialType` and `OmitType` are not documentation: they carry the validation rules of the class they map, so they
 * are `@nestjs/mapped-types`' own, the ones `@nestjs/swagger` builds its versions on. `swagger-at-runtime.spec.ts`
 * holds this module to api-docs.ts' names and to the package's behaviour where it matters.
 */
export { OmitType, PartialType } from '@nestjs/mapped-types';

/** A decorator that records nothing, for methods, classes and properties alike. */
const recordsNothing = (..._options: unknown[]): ClassDecorator & MethodDecorator & PropertyDecorator => () => undefined;

export const ApiAcceptedResponse = recordsNothing;
export const ApiBearerAuth = recordsNothing;
export const ApiBody = recordsNothing;
export const ApiCreatedResponse = recordsNothing;
export const ApiExtraModels = recordsNothing;
export const ApiHeader = recordsNothing;
export const ApiNoContentResponse = recordsNothing;
export const ApiOkResponse = recordsNothing;
export const ApiOperation = recordsNothing;
export const ApiProperty = recordsNothing;
export const ApiPropertyOptional = recordsNothing;
export const ApiResponse = recordsNothing;
export const ApiTags = recordsNothing;

/** The reference `@nestjs/swagger` gives a model (decorator arguments call it as the classes load). */
export function getSchemaPath(model: string | (new (...args: never[]) => unknown)): string {
  return `#/components/schemas/${typeof model === 'string' ? model : model.name}`;
}
