import type { ReceiverField } from '@owd/payload';
import { fieldValueErrors } from './field-values';

const fields: ReceiverField[] = [
  { key: 'desk', label: 'Desk', type: 'text', required: true, multiple: false },
  { key: 'breaking', label: 'Breaking', type: 'bool', required: false, multiple: false },
  { key: 'category', label: 'Category', type: 'enum', required: false, multiple: false, options: [{ value: 'eco', label: 'Economy' }, { value: 'pol', label: 'Politics' }] },
  { key: 'regions', label: 'Regions', type: 'enum', required: false, multiple: true, options: [{ value: 'eu', label: 'EU' }, { value: 'us', label: 'US' }] },
];

describe('fieldValueErrors', () => {
  it('accepts values of the right type and within the options, and null as "no value"', () => {
    expect(fieldValueErrors({ desk: 'Economy', breaking: true, category: 'eco', regions: ['eu', 'us'] }, fields, 'values')).toEqual([]);
    expect(fieldValueErrors({ desk: null, category: null }, fields, 'values')).toEqual([]);
  });

  it('names an unknown key', () => {
    expect(fieldValueErrors({ colour: 'red' }, fields, 'values')).toEqual([{ field: 'values.colour', message: expect.stringMatching(/unknown field/) }]);
  });

  it('names a value of the wrong type', () => {
    const errors = fieldValueErrors({ desk: 3, breaking: 'yes', category: ['eco'], regions: 'eu' }, fields, 'values');
    expect(errors.map((e) => e.field)).toEqual(['values.desk', 'values.breaking', 'values.category', 'values.regions']);
  });

  it('names an enum value outside the options', () => {
    expect(fieldValueErrors({ category: 'sport' }, fields, 'values')).toEqual([{ field: 'values.category', message: expect.stringMatching(/"sport" is not among the options/) }]);
    expect(fieldValueErrors({ regions: ['eu', 'asia'] }, fields, 'values')[0].field).toBe('values.regions');
  });

  it('refuses every key when the goal has no receiver fields', () => {
    expect(fieldValueErrors({ desk: 'x' }, null, 'fieldDefaults')).toEqual([{ field: 'fieldDefaults.desk', message: expect.stringMatching(/no receiver fields/) }]);
  });
});
