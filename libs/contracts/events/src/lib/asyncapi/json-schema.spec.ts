import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsDateString, IsEmail, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, ValidateNested } from 'class-validator';
import { IsAsciiEmail, IsNullable, IsRfc3339DateTime, IsUtcTimestamp } from '../formats/format.decorators';
import { UTC_TIMESTAMP_PATTERN } from '../formats/formats';
import { classSchema, SchemaComponents } from './json-schema';

class Inner {
  @IsString() name!: string;
}

class Sample {
  @IsInt() @Min(1) @Max(3) attempt!: number;
  @IsOptional() @IsIn(['a', 'b']) mode!: 'a' | 'b' | null;
  @IsOptional() @ValidateNested() @Type(() => Inner) inner?: Inner;
}

class WithUrl {
  @IsUrl() site!: string;
}

class WithFormats {
  @IsNullable() @IsInt() status!: number | null;
  @IsUtcTimestamp() at!: string;
  @IsRfc3339DateTime() executedAt!: string;
  @IsAsciiEmail() owner!: string;
}

class WithIsDateString {
  @IsDateString({ strict: true }) at!: string;
}

class WithIsEmail {
  @IsEmail() owner!: string;
}

class UntypedNested {
  @ValidateNested() inner!: Inner;
}

describe('classSchema', () => {
  it('maps decorators to draft-07 keywords and optional properties to not required and nullable', () => {
    const components = new SchemaComponents();
    expect(classSchema(Sample, true, components)).toEqual({
      type: 'object',
      required: ['attempt'],
      properties: {
        attempt: { type: 'integer', minimum: 1, maximum: 3 },
        mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
        inner: { anyOf: [{ $ref: '#/components/schemas/Inner' }, { type: 'null' }] },
      },
      additionalProperties: false,
    });
    expect(components.schemas['Inner']).toEqual({
      type: 'object', required: ['name'], properties: { name: { type: 'string' } }, additionalProperties: false,
    });
  });

  it('maps @IsNullable to required with null among its types, and the contract formats to date-time and email', () => {
    expect(classSchema(WithFormats, true, new SchemaComponents())).toEqual({
      type: 'object',
      required: ['status', 'at', 'executedAt', 'owner'],
      properties: {
        status: { type: ['integer', 'null'] },
        at: { type: 'string', format: 'date-time', pattern: UTC_TIMESTAMP_PATTERN.source },
        executedAt: { type: 'string', format: 'date-time' },
        owner: { type: 'string', format: 'email' },
      },
      additionalProperties: false,
    });
  });

  it("refuses class-validator's own date and e-mail checks, which accept what the JSON Schema formats refuse", () => {
    expect(() => classSchema(WithIsDateString, true, new SchemaComponents())).toThrow(/WithIsDateString\.at .*isDateString.* no JSON Schema mapping/);
    expect(() => classSchema(WithIsEmail, true, new SchemaComponents())).toThrow(/WithIsEmail\.owner .*isEmail.* no JSON Schema mapping/);
  });

  it('refuses a decorator it has no mapping for, so a new one cannot be left out of the document silently', () => {
    expect(() => classSchema(WithUrl, true, new SchemaComponents())).toThrow(/WithUrl\.site .*isUrl.* no JSON Schema mapping/);
  });

  it('refuses @ValidateNested without @Type, whose element class it cannot know', () => {
    expect(() => classSchema(UntypedNested, true, new SchemaComponents())).toThrow(/UntypedNested\.inner needs @Type/);
  });

  it('refuses a description of a property the class does not validate', () => {
    expect(() => classSchema(Inner, true, new SchemaComponents(), { gone: 'x' })).toThrow(/Inner\.gone/);
  });
});
