import { isEmptyFieldValue } from './empty-field-value';

describe('isEmptyFieldValue', () => {
  it.each([undefined, null, '', '   ', []])('counts %p as empty', (value) => {
    expect(isEmptyFieldValue(value)).toBe(true);
  });

  it.each([false, true, 'x', ['a']])('counts %p as a value', (value) => {
    expect(isEmptyFieldValue(value)).toBe(false);
  });
});
