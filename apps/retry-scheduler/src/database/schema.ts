/** The PostgreSQL schema this service owns; no other service reads it. */
export const SERVICE_SCHEMA = 'retry_scheduler';
