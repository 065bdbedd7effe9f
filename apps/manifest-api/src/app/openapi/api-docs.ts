/**
 * The OpenAPI decorators and mapped types of the API's controllers and DTOs. They come from here, not from
 * `@nestjs/swagger` directly, because the bundle puts swagger-at-runtime.ts in this module's place
 * (webpack.config.js): in the running API the decorators record nothing and the package is not loaded, while the
 * tests, which build the document (docs/openapi.json, openapi.spec.ts), get the package's own.
 */
export {
  ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiExtraModels, ApiHeader, ApiNoContentResponse, ApiOkResponse,
  ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags, getSchemaPath, OmitType, PartialType,
} from '@nestjs/swagger';
