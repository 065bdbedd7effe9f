import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { IsInt, IsString, validateSync } from 'class-validator';
import * as swagger from '@nestjs/swagger';
import * as apiDocs from './api-docs';
import * as atRuntime from './swagger-at-runtime';

const SRC = join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The values (not types) each source file imports from '@nestjs/swagger' itself. */
function swaggerImports(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    for (const [, names] of readFileSync(file, 'utf8').matchAll(/(?:import|export)\s+\{([^}]*)\}\s+from\s+'@nestjs\/swagger'/g)) {
      const values = names.split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '));
      if (values.length > 0) found.set(relative(SRC, file), values);
    }
  }
  return found;
}

const importersOf = (module: string): string[] =>
  sources(SRC).filter((f) => new RegExp(`from '[./]*(?:openapi/)?${module}'`).test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));

describe("the running API's OpenAPI decorators (swagger-at-runtime.ts, in api-docs.ts' place in the bundle)", () => {
  it("exports every value api-docs.ts does, and the API's modules take them from api-docs.ts", () => {
    expect(Object.keys(atRuntime).sort()).toEqual(Object.keys(apiDocs).sort());
    expect(importersOf('api-docs').length).toBeGreaterThan(30);
    // Only these import the package itself: api-docs.ts; the lazily loaded docs' pages; the document's builder,
    // which only the export (run by the tests) imports.
    expect([...swaggerImports().keys()].sort()).toEqual(['app/openapi/api-docs.ts', 'app/openapi/openapi-document.ts']);
    expect(readFileSync(join(__dirname, 'openapi-ui.ts'), 'utf8')).toContain("import('@nestjs/swagger')");
    expect(importersOf('openapi-document')).toEqual(['app/openapi/export-openapi.ts']);
    expect(importersOf('export-openapi')).toEqual([]);
  });

  it('records no documentation with its decorators', () => {
    class Documented {
      @atRuntime.ApiProperty({ description: 'a name' }) name!: string;
      @atRuntime.ApiPropertyOptional() note?: string;
    }
    class ByThePackage {
      @swagger.ApiProperty({ description: 'a name' }) name!: string;
    }
    const swaggerKeys = (target: object) => Reflect.getMetadataKeys(target).filter((k) => String(k).startsWith('swagger/'));
    expect(swaggerKeys(ByThePackage.prototype)).not.toEqual([]);
    expect(swaggerKeys(Documented.prototype)).toEqual([]);
    expect(swaggerKeys(Documented)).toEqual([]);
  });

  it('gives a model the reference the package gives it', () => {
    class Block {}
    expect(atRuntime.getSchemaPath(Block)).toBe(swagger.getSchemaPath(Block));
    expect(atRuntime.getSchemaPath('Problem')).toBe(swagger.getSchemaPath('Problem'));
  });

  it('maps types with their validation rules, as the package does', () => {
    class Create {
      @IsString() name!: string;
      @IsInt() weight!: number;
      @IsString() channel!: string;
    }
    class Update extends atRuntime.PartialType(atRuntime.OmitType(Create, ['channel'] as const), { skipNullProperties: false }) {}
    class Documented extends swagger.PartialType(swagger.OmitType(Create, ['channel'] as const), { skipNullProperties: false }) {}
    const check = (cls: new () => object, value: object) =>
      validateSync(Object.assign(new cls(), value), { forbidUnknownValues: false }).map((e) => `${e.property}: ${Object.keys(e.constraints ?? {}).join(',')}`);
    for (const value of [{}, { name: 'a' }, { name: 7 }, { weight: 'heavy' }, { name: null }, { channel: 9 }]) {
      expect(check(Update, value)).toEqual(check(Documented, value));
    }
    expect(check(Update, { name: 7 })).toEqual(['name: isString']);
    expect(check(Update, { name: null })).toEqual(['name: isString']);
  });
});
