import { PayloadInputError, type ReceiverField } from '@owd/payload';
import { effectiveFieldValues, missingRequiredFields, reportedFieldValues } from './field-values';

const fields: ReceiverField[] = [
  { key: 'section', label: 'Section', type: 'enum', required: true, multiple: false, options: [{ value: 'news', label: 'News' }] },
  { key: 'tags', label: 'Tags', type: 'enum', required: false, multiple: true, options: [] },
  { key: 'featured', label: 'Featured', type: 'bool', required: true, multiple: false },
];

describe('receiver field values', () => {
  describe('effectiveFieldValues', () => {
    it('takes a per-result value over the goal default and keeps the other defaults', () => {
      expect(effectiveFieldValues({ section: 'news', desk: 'city' }, { section: 'sport' })).toEqual({ section: 'sport', desk: 'city' });
    });

    it('falls back to the default where the per-result value is null', () => {
      expect(effectiveFieldValues({ section: 'news' }, { section: null })).toEqual({ section: 'news' });
    });

    it('keeps an explicit false and an explicit empty text of the result', () => {
      expect(effectiveFieldValues({ featured: true, desk: 'city' }, { featured: false, desk: '' })).toEqual({ featured: false, desk: '' });
    });
  });

  describe('missingRequiredFields', () => {
    it('lists required fields that are absent, null, blank or an empty selection, sorted', () => {
      expect(missingRequiredFields(fields, {})).toEqual(['featured', 'section']);
      expect(missingRequiredFields(fields, { section: ' ', featured: null })).toEqual(['featured', 'section']);
      expect(missingRequiredFields(fields, { section: 'news', featured: false })).toEqual([]);
    });

    it('does not read inherited properties as values', () => {
      expect(missingRequiredFields([{ ...fields[0], key: 'constructor' }], {})).toEqual(['constructor']);
    });
  });

  describe('reportedFieldValues', () => {
    it('keeps only values of reported fields', () => {
      expect(reportedFieldValues(fields, { section: 'news', desk: 'city', tags: ['a'] })).toEqual({ section: 'news', tags: ['a'] });
    });

    it('refuses a value of an impossible shape with a typed error instead of dropping it', () => {
      expect(() => reportedFieldValues(fields, { section: { nested: 1 } })).toThrow(PayloadInputError);
      expect(() => reportedFieldValues(fields, { tags: [1, 2] })).toThrow(/tags has a value of the wrong shape/);
    });
  });
});
