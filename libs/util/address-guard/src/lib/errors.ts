import type { AddressRule } from './rules';

export const ADDRESS_REFUSED_CODE = 'ERR_ADDRESS_REFUSED';

/** Raised at connect time; `rule` is the same stable label `checkTarget` returns. */
export class AddressRefusedError extends Error {
  readonly code = ADDRESS_REFUSED_CODE;
  readonly rule: AddressRule;
  readonly address: string | undefined;
  readonly hostname: string | undefined;

  constructor(init: { rule: AddressRule; reason: string; address?: string; hostname?: string }) {
    super(init.reason);
    this.name = 'AddressRefusedError';
    this.rule = init.rule;
    this.address = init.address;
    this.hostname = init.hostname;
  }
}

/** Finds the refusal even when a caller wrapped it (`new Error('…', { cause })`). */
export function findAddressRefusedError(error: unknown): AddressRefusedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof AddressRefusedError) return current;
    current = current.cause;
  }
  return undefined;
}
