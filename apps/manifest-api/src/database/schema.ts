/** PostgreSQL schema that holds every table of manifest-api (docs/architecture.md#schemas). */
export const SERVICE_SCHEMA = 'manifest_api';
