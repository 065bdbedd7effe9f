export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');
