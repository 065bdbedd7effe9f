import { SYSTEM_RESOLVER } from '@owd/address-guard';

/** The resolver behind every address check and guarded connection of this service, injected so tests can fake DNS. */
export const ADDRESS_RESOLVER = Symbol('ADDRESS_RESOLVER');

export const systemResolverProvider = { provide: ADDRESS_RESOLVER, useValue: SYSTEM_RESOLVER };
