import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, Equals, IsArray, IsDateString, IsEmail, IsHexColor, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Max, Min,
  registerDecorator, ValidateNested,
} from 'class-validator';
import { IsAsciiEmail, IsNullable, IsRfc3339DateTime, IsUtcTimestamp, OptionalNotNull } from '../formats/format.decorators';
import { UTC_TIMESTAMP_PATTERN } from '../formats/formats';
import { classSchema, SchemaComponents, URL_KEYWORD } from './json-schema';

class Inner {
  @IsString() name!: string;
}

class Sample {
  @IsInt() @Min(1) @Max(3) attempt!: number;
  @IsOptional() @IsIn(['a', 'b']) mode!: 'a' | 'b' | null;
  @IsOptional() @ValidateNested() @Type(() => Inner) inner?: Inner;
}

class WithHexColor {
  @IsHexColor() colour!: string;
}

class Paragraph {
  @Equals('paragraph') type!: 'paragraph';
  @IsString() text!: string;
}

class Rule {
  @Equals('rule') type!: 'rule';
}

class Fallback {
  @IsIn(['paragraph', 'rule']) type!: string;
}

/** A map of entries, as apps/manifest-api's @RecordOf registers it. */
function MapOf(entry: new () => object, keyPattern: RegExp): PropertyDecorator {
  return (target, propertyName) => registerDecorator({
    name: 'recordOf', target: target.constructor, propertyName: String(propertyName), constraints: [entry, keyPattern],
    validator: { validate: () => true },
  });
}

class Intake {
  @OptionalNotNull() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) cost?: number;
  @IsUrl({ require_protocol: true, protocols: ['https'] }) site!: string;
  @IsArray() @ArrayMaxSize(3) @IsArray({ each: true }) rows!: string[][];
  @MapOf(Inner, /^[a-z]+$/) names!: Record<string, Inner>;
  @IsArray() @ValidateNested({ each: true })
  @Type(() => Fallback, { discriminator: { property: 'type', subTypes: [{ name: 'paragraph', value: Paragraph }, { name: 'rule', value: Rule }] }, keepDiscriminatorProperty: true })
  blocks!: object[];
}

class EachWithoutArray {
  @IsString({ each: true }) tags!: string[];
}

class InfiniteNumber {
  @IsNumber({ allowInfinity: true }) n!: number;
}

class DroppedDiscriminator {
  @IsArray() @ValidateNested({ each: true })
  @Type(() => Fallback, { discriminator: { property: 'type', subTypes: [{ name: 'rule', value: Rule }] } })
  blocks!: object[];
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
    expect(() => classSchema(WithHexColor, true, new SchemaComponents())).toThrow(/WithHexColor\.colour .*isHexColor.* no JSON Schema mapping/);
  });

  it("maps the intake's rules: optional but not null, finite numbers, URL options, nested arrays, maps and discriminated classes", () => {
    const components = new SchemaComponents();
    expect(classSchema(Intake, true, components)).toEqual({
      type: 'object',
      required: ['site', 'rows', 'names', 'blocks'],
      properties: {
        cost: { type: 'number', minimum: 0 },
        site: { type: 'string', [URL_KEYWORD]: { require_protocol: true, protocols: ['https'] } },
        rows: { type: 'array', items: { type: 'array' }, maxItems: 3 },
        names: { type: 'object', propertyNames: { type: 'string', pattern: '^[a-z]+$' }, additionalProperties: { $ref: '#/components/schemas/Inner' } },
        blocks: {
          type: 'array',
          items: {
            type: 'object',
            required: ['type'],
            properties: { type: { enum: ['paragraph', 'rule'] } },
            allOf: [
              { if: { properties: { type: { const: 'paragraph' } } }, then: { $ref: '#/components/schemas/Paragraph' } },
              { if: { properties: { type: { const: 'rule' } } }, then: { $ref: '#/components/schemas/Rule' } },
            ],
          },
        },
      },
      additionalProperties: false,
    });
    expect(components.schemas['Paragraph']).toEqual({
      type: 'object', required: ['type', 'text'], properties: { type: { const: 'paragraph' }, text: { type: 'string' } }, additionalProperties: false,
    });
  });

  it('refuses rules it cannot write exactly: each element without @IsArray, infinite numbers, a dropped discriminator', () => {
    expect(() => classSchema(EachWithoutArray, true, new SchemaComponents())).toThrow(/EachWithoutArray\.tags checks each element without @IsArray/);
    expect(() => classSchema(InfiniteNumber, true, new SchemaComponents())).toThrow(/allowInfinity/);
    expect(() => classSchema(DroppedDiscriminator, true, new SchemaComponents())).toThrow(/DroppedDiscriminator\.blocks drops its discriminator/);
  });

  it('refuses @ValidateNested without @Type, whose element class it cannot know', () => {
    expect(() => classSchema(UntypedNested, true, new SchemaComponents())).toThrow(/UntypedNested\.inner needs @Type/);
  });

  it('refuses a description of a property the class does not validate', () => {
    expect(() => classSchema(Inner, true, new SchemaComponents(), { gone: 'x' })).toThrow(/Inner\.gone/);
  });
});
