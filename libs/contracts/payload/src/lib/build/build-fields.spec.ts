import { RequiredFieldMissingError } from '../errors/required-field-missing.error';
import { ReceiverField } from '../input/receiver-fields.input';
import { FieldValue } from '../types/payload.types';
import { buildFields } from './build-fields';

const field = (key: string, patch: Partial<ReceiverField> = {}): ReceiverField => ({
  key,
  label: key,
  type: 'text',
  required: false,
  multiple: false,
  ...patch,
});

describe('buildFields', () => {
  it('sends nothing when the receiver never reported fields or reported none', () => {
    expect(buildFields({ reportedFields: null, values: { a: 'x' } })).toBeUndefined();
    expect(buildFields({ reportedFields: [], values: { a: 'x' } })).toBeUndefined();
  });

  it('sends no fields key when the receiver reported only optional fields, set or not (spec §2.3)', () => {
    expect(buildFields({ reportedFields: [field('desk')], values: {} })).toBeUndefined();
    expect(buildFields({ reportedFields: [field('desk'), field('flag', { type: 'bool' })], values: { desk: 'Economy', flag: true } }))
      .toBeUndefined();
  });

  it('with a required field: sends the fields that have a value, keys sorted, and leaves the unset ones out (never null)', () => {
    const reported = [field('zeta'), field('need', { required: true }), field('alpha'), field('blank'), field('none')];
    const fields = buildFields({ reportedFields: reported, values: { zeta: 'z', need: 'n', blank: '  ', none: null } as Record<string, FieldValue> });
    expect(fields).toEqual({ need: 'n', zeta: 'z' });
    expect(Object.keys(fields ?? {})).toEqual(['need', 'zeta']);
  });

  it('does not send values of fields the receiver no longer reports', () => {
    expect(buildFields({ reportedFields: [field('a', { required: true })], values: { a: 'x', old: 'y' } })).toEqual({ a: 'x' });
  });

  it.each<[string, FieldValue | undefined]>([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['blank', '  '],
    ['an empty selection', []],
  ])('refuses to send when a required field is %s', (_case, value) => {
    const values: Record<string, FieldValue> = value === undefined ? {} : { need: value };
    const build = (): unknown =>
      buildFields({ reportedFields: [field('need', { required: true, type: 'enum', multiple: true })], values });
    expect(build).toThrow(RequiredFieldMissingError);
    expect(build).toThrow(expect.objectContaining({ keys: ['need'] }));
  });

  it('counts false as a value of a required bool field', () => {
    expect(buildFields({ reportedFields: [field('flag', { type: 'bool', required: true })], values: { flag: false } })).toEqual({
      flag: false,
    });
  });

  it('refuses a value whose shape does not match the field type', () => {
    expect(() => buildFields({ reportedFields: [field('flag', { type: 'bool', required: true })], values: { flag: 'yes' } })).toThrow(
      expect.objectContaining({ code: 'invalid_field_value' }),
    );
    expect(() =>
      buildFields({ reportedFields: [field('one', { type: 'enum', multiple: false, required: true })], values: { one: ['a'] } }),
    ).toThrow(expect.objectContaining({ code: 'invalid_field_value' }));
  });

  it('keeps the order of a multiple selection', () => {
    const reported = [field('region', { type: 'enum', multiple: true, required: true })];
    expect(buildFields({ reportedFields: reported, values: { region: ['ua', 'eu'] } })).toEqual({ region: ['ua', 'eu'] });
  });
});
