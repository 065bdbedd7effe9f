/** The resolver behind the pre-send check and every guarded connection, injected so tests can fake DNS. */
export const ADDRESS_RESOLVER = Symbol('ADDRESS_RESOLVER');
