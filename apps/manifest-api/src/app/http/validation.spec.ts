import { plainToInstance, Type } from 'class-transformer';
import { IsArray, IsString, MetadataStorage, ValidateNested, validateSync } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ProblemException } from './problem';
import { createValidationPipe, flattenValidationErrors, rememberValidationRules } from './validation';

class Option {
  @IsString() value!: string;
}

class Field {
  @IsString() key!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Option) options!: Option[];
}

class Report {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Field) fields!: Field[];
}

describe('validation errors', () => {
  it('names nested array members by index and unknown keys by name', () => {
    const report = plainToInstance(Report, { fields: [{ key: 'a', options: [] }, { key: 1, options: [{ value: 2, extra: 1 }] }] });
    const errors = flattenValidationErrors(validateSync(report, { whitelist: true, forbidNonWhitelisted: true }));
    expect(errors.map((e) => e.field).sort()).toEqual(['fields[1].key', 'fields[1].options[0].extra', 'fields[1].options[0].value']);
  });

  it.each([['no body', undefined], ['an array', [{ fields: [] }]], ['a string', 'x']])('refuses %s where a JSON object is expected', async (_name, body) => {
    await expect(createValidationPipe().transform(body, { type: 'body', metatype: Report })).rejects.toBeInstanceOf(ProblemException);
  });
});

describe('remembered validation rules', () => {
  class Base {}
  class Child extends Base {}
  const rule = (target: object, propertyName: string, groups: string[] = []) =>
    ({ type: 'customValidation', target, propertyName, constraints: [], groups, each: false }) as unknown as ValidationMetadata;
  const names = (rules: { propertyName: string }[]) => rules.map((r) => r.propertyName).sort();

  it('answers a repeated lookup from memory and a rule added later is seen at once', () => {
    const storage = new MetadataStorage();
    rememberValidationRules(storage);
    storage.addValidationMetadata(rule(Base, 'inherited'));
    storage.addValidationMetadata(rule(Child, 'own'));
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(names(first)).toEqual(['inherited', 'own']);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));

    storage.addValidationMetadata(rule(Base, 'later'));
    expect(names(storage.getTargetValidationMetadatas(Child, '', false, false))).toEqual(['inherited', 'later', 'own']);
  });

  it('keeps lookups with other groups apart', () => {
    const storage = new MetadataStorage();
    rememberValidationRules(storage);
    storage.addValidationMetadata(rule(Base, 'grouped', ['a']));
    expect(names(storage.getTargetValidationMetadatas(Base, '', false, false, ['a']))).toEqual(['grouped']);
    expect(names(storage.getTargetValidationMetadatas(Base, '', false, false, ['b']))).toEqual([]);
    expect(names(storage.getTargetValidationMetadatas(Base, '', false, false, ['a']))).toEqual(['grouped']);
  });
});
