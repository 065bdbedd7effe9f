import { fieldRuleErrors, toReceiverFields } from './field-rules';

const enumField = { key: 'category', label: 'Category', type: 'enum', options: [{ value: 'eco', label: 'Economy' }] };

describe('capability report field rules', () => {
  it('accepts well-formed fields and fills the defaults', () => {
    const fields = [{ key: 'desk', label: 'Desk', type: 'text', required: true }, { ...enumField, multiple: true }];
    expect(fieldRuleErrors(fields)).toEqual([]);
    expect(toReceiverFields(fields)).toEqual([
      { key: 'desk', label: 'Desk', type: 'text', required: true, multiple: false },
      { key: 'category', label: 'Category', type: 'enum', required: false, multiple: true, options: [{ value: 'eco', label: 'Economy' }] },
    ]);
  });

  it.each([
    ['a key with capitals', { key: 'Desk', label: 'x', type: 'text' }, 'fields[0].key'],
    ['a key over 40 characters', { key: 'k'.repeat(41), label: 'x', type: 'text' }, 'fields[0].key'],
    ['an unknown type', { key: 'k', label: 'x', type: 'number' }, 'fields[0].type'],
    ['multiple on text', { key: 'k', label: 'x', type: 'text', multiple: true }, 'fields[0].multiple'],
    ['an enum without options', { key: 'k', label: 'x', type: 'enum' }, 'fields[0].options'],
    ['options on a bool', { key: 'k', label: 'x', type: 'bool', options: [{ value: 'a', label: 'A' }] }, 'fields[0].options'],
  ])('names %s', (_name, field, path) => {
    expect(fieldRuleErrors([field]).map((e) => e.field)).toEqual([path]);
  });

  it('names the second of two fields with the same key, and the third field by index', () => {
    const errors = fieldRuleErrors([{ key: 'a', label: 'A', type: 'text' }, { key: 'a', label: 'B', type: 'text' }, { key: 'c', label: 'C', type: 'enum' }]);
    expect(errors.map((e) => e.field)).toEqual(['fields[1].key', 'fields[2].options']);
  });
});
