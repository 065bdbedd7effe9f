import { plainToInstance, Type } from 'class-transformer';
import { IsArray, IsString, ValidateNested, validateSync } from 'class-validator';
import { ProblemException } from './problem';
import { createValidationPipe, flattenValidationErrors } from './validation';

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
