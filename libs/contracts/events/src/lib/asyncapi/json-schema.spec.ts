import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, ValidateNested } from 'class-validator';
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
