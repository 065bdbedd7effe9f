import type { ReceiverField } from './api-types';
import { compactValues, describeValue, fieldProblems } from './fields';

const FIELDS: ReceiverField[] = [
  { key: 'desk', label: 'Desk', type: 'text', required: true },
  { key: 'category', label: 'Category', type: 'enum', options: [{ value: 'eco', label: 'Economy' }, { value: 'pol', label: 'Politics' }] },
  { key: 'regions', label: 'Regions', type: 'enum', multiple: true, options: [{ value: 'eu', label: 'Europe' }, { value: 'as', label: 'Asia' }] },
  { key: 'breaking', label: 'Breaking', type: 'bool' },
];

describe('receiver field values in the console', () => {
  it('finds nothing wrong with values that fit the fields', () => {
    expect(fieldProblems(FIELDS, { desk: 'Markets', category: 'eco', regions: ['eu', 'as'], breaking: false }).size).toBe(0);
  });

  it('names a value outside the options, the wrong shape, and a field the receiver no longer reports', () => {
    const problems = fieldProblems(FIELDS, { desk: true, category: 'sport', regions: 'eu', breaking: 'yes', colour: 'red' });
    expect(Object.fromEntries(problems)).toEqual({
      desk: 'Must be text.',
      category: '“sport” is not among the receiver’s options.',
      regions: 'Must be a list of options.',
      breaking: 'Must be yes or no.',
      colour: 'The receiver no longer reports this field.',
    });
  });

  it('flags a required field without a value unless the goal has a default for it', () => {
    expect(fieldProblems(FIELDS, {}).get('desk')).toBe('Required by the receiver: a result without a value is not sent.');
    expect(fieldProblems(FIELDS, { desk: '' }).has('desk')).toBe(true);
    expect(fieldProblems(FIELDS, {}, { desk: 'Newsroom' }).has('desk')).toBe(false);
  });

  it('shows values by their labels', () => {
    expect(describeValue(FIELDS[1], 'eco')).toBe('Economy');
    expect(describeValue(FIELDS[2], ['eu', 'as'])).toBe('Europe, Asia');
    expect(describeValue(FIELDS[3], true)).toBe('Yes');
    expect(describeValue(FIELDS[0], null)).toBe('—');
    expect(describeValue(undefined, 'raw')).toBe('raw');
  });

  it('leaves out empty inputs, so they mean "no value"', () => {
    expect(compactValues({ desk: 'Markets', category: undefined, regions: [], note: '', breaking: false })).toEqual({ desk: 'Markets', breaking: false });
  });
});
