/** The PostgreSQL schema this service owns. */
export const SERVICE_SCHEMA = 'payload_builder';
