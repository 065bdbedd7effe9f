import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

function messages(errors: ValidationError[]): string[] {
  return errors.map((e) => {
    const reasons = Object.values(e.constraints ?? {});
    const given = e.value === undefined ? 'it is not set' : 'check its value';
    return `${e.property}: ${reasons.join(', ')} (${given})`;
  });
}

/**
 * Builds the `validate` function for ConfigModule: the service refuses to start on bad configuration
 * and the message names every wrong variable (never its value, which may be a secret).
 */
export function validateConfig<T extends object>(cls: new () => T) {
  return (env: Record<string, unknown>): T => {
    const config = plainToInstance(cls, env, { exposeDefaultValues: true });
    const errors = validateSync(config, { skipMissingProperties: false });
    if (errors.length > 0) throw new ConfigurationError(messages(errors));
    return config;
  };
}
