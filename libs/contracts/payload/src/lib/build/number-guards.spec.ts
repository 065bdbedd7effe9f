import { articleInput } from '../testing/input.factory';
import { buildPayload } from './build-payload';
import { assertAmount, assertInteger } from './number-guards';

describe('number guards', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, 1.5, -1])('refuses %p where an integer >= 0 is required', (value) => {
    expect(() => assertInteger(value, 'tokens', 0)).toThrow(expect.objectContaining({ code: 'invalid_number' }));
  });

  it.each([Number.NaN, Number.NEGATIVE_INFINITY, -0.01])('refuses %p as a cost', (value) => {
    expect(() => assertAmount(value, 'cost')).toThrow(expect.objectContaining({ code: 'invalid_number' }));
  });

  it('writes -0 as 0', () => {
    expect(Object.is(assertAmount(-0, 'cost'), 0)).toBe(true);
  });

  it('refuses a payload whose cost would serialise as null', () => {
    expect(() => buildPayload(articleInput({ revision: { cost: Number.NaN } }))).toThrow(expect.objectContaining({ code: 'invalid_number' }));
  });
});
