import type { OpenAPIObject, ParameterObject } from '@nestjs/swagger';
import { RESULT_ID_PATTERN } from '../results/result-store.service';

/** The shape of each path id (IdPipe answers 404 to anything else): UUIDs, and results' `res_` ids. */
const PATH_ID_SCHEMAS: Record<string, { type: 'string'; format?: string; pattern?: string }> = {
  workspaceId: { type: 'string', format: 'uuid' },
  tokenId: { type: 'string', format: 'uuid' },
  goalId: { type: 'string', format: 'uuid' },
  recoveryId: { type: 'string', format: 'uuid' },
  resultId: { type: 'string', pattern: RESULT_ID_PATTERN.source },
};

/** Declares the format of every path id by its name, so no controller can leave one a bare string. */
export function typePathIds(document: OpenAPIObject): OpenAPIObject {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (typeof operation !== 'object' || operation === null || !('parameters' in operation)) continue;
      for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
        const schema = parameter.in === 'path' ? PATH_ID_SCHEMAS[parameter.name] : undefined;
        if (schema) parameter.schema = { ...schema };
      }
    }
  }
  return document;
}
