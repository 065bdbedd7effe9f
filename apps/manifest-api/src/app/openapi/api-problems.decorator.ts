import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from './api-docs';
import { PROBLEM_CONTENT_TYPE } from '../http/problem';
import { ProblemDto } from './problem.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: malformed JSON, unknown or forbidden fields, wrong types (`errors` names them)',
  401: 'No, unknown or revoked API token',
  403: 'The token is of the wrong kind (admin vs workspace)',
  404: 'Not found, or it belongs to another workspace',
  409: 'Conflicts with the current state',
  413: 'Request body over 1 MiB',
  415: 'Request body is not application/json',
  422: 'Well-formed but breaks a rule (`errors` names the field)',
  429: 'Rate limit of the token exhausted; see Retry-After',
  500: 'Unexpected error; logged without request values, nothing of it in the answer',
  503: 'The database is not reachable at the moment; nothing was stored. Send the same request again after Retry-After (5 s)',
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } };

/** Documents error answers as application/problem+json. */
export function ApiProblems(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDto),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Error',
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDto) } } },
        ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      }),
    ),
  );
}

/** Errors any request can get from the server side. */
export const SERVER_PROBLEMS = [500, 503] as const;

/** Errors any request with a JSON body can get. */
export const BODY_PROBLEMS = [400, 413, 415] as const;
