import { ValidatorOptions } from 'class-validator';

/** Our own payload must match exactly: unknown keys are an error here (receivers, by contrast, ignore them). */
export const STRICT_VALIDATION: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
};
