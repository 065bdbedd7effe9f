/** class-transformer `@Transform` functions that turn environment strings into typed settings. */
type TransformArgs = { value: unknown };

/** A number; unset or empty keeps the default. */
export const envInt = ({ value }: TransformArgs) => (value === undefined || value === '' ? undefined : Number(value));

/** `1`, `true`, `yes`, `on` (any case) are true; anything else set is false. */
export const envBool = ({ value }: TransformArgs) =>
  value === undefined ? undefined : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase());

/** A comma-separated list, trimmed, without empty entries. */
export const envList = ({ value }: TransformArgs) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;
