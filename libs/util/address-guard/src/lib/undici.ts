/**
 * undici, loaded when the first agent or connector is made, not when this library is: the API loads the library
 * for its address checks and sends only Send tests, so it does not keep undici's ~110 modules in memory until one
 * is asked for (docs/performance.md, "A pod's memory").
 */
export const undici = () => require('undici') as typeof import('undici');
