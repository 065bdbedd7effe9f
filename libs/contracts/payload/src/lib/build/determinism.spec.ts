import { BuildPayloadInput } from '../input/build-payload.input';
import { GOLDEN_FIXTURES } from '../fixtures/golden-fixtures';
import { buildPayload } from './build-payload';

// Rebuilds every object of the input with its keys in reverse order; arrays keep their (meaningful) order.
function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => reverseKeys(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).reverse();
  return Object.fromEntries(entries.map(([key, item]: [string, unknown]) => [key, reverseKeys(item)])) as T;
}

describe('deterministic serialisation', () => {
  it.each(GOLDEN_FIXTURES.map((fixture) => [fixture.file, fixture.input] as const))(
    '%s: the same input gives byte-identical bodies',
    (_file, input) => {
      expect(buildPayload(input).body.equals(buildPayload(structuredClone(input)).body)).toBe(true);
    },
  );

  it.each(GOLDEN_FIXTURES.map((fixture) => [fixture.file, fixture.input] as const))(
    '%s: input key order does not reach the body',
    (_file, input) => {
      const reversed: BuildPayloadInput = reverseKeys(input);
      expect(buildPayload(reversed).body.equals(buildPayload(input).body)).toBe(true);
    },
  );
});
