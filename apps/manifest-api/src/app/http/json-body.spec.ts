import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbiddenKey, MAX_JSON_DEPTH, refuseDeepNesting } from './json-body';

const depthOf = (levels: number) => `${'{"a":['.repeat(levels / 2)}1${']}'.repeat(levels / 2)}`;
const check = (body: string) => () => refuseDeepNesting({} as IncomingMessage, {} as ServerResponse, Buffer.from(body, 'utf8'));

describe('refuseDeepNesting (body-parser verify hook)', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of objects and arrays and refuses one more as a 400 entity.too.deep`, () => {
    expect(check(depthOf(MAX_JSON_DEPTH))).not.toThrow();
    expect(check(`[${depthOf(MAX_JSON_DEPTH)}]`)).toThrow(expect.objectContaining({ status: 400, type: 'entity.too.deep' }));
  });

  it('counts levels, not brackets: siblings do not add up', () => {
    expect(check(`[${Array.from({ length: 1000 }, () => '[{}]').join(',')}]`)).not.toThrow();
  });

  it('ignores brackets inside strings, also after escaped quotes and backslashes', () => {
    expect(check(JSON.stringify({ text: '['.repeat(100), quoted: `"${'{'.repeat(100)}`, slash: `\\${'['.repeat(100)}` }))).not.toThrow();
    expect(check(`{"a":"\\\\","b":[${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`)).toThrow();
  });

  it('reads multi-byte UTF-8 text without mistaking its bytes for brackets', () => {
    expect(check(JSON.stringify({ uk: 'Ціни на зерно [падають] 🌾'.repeat(50) }))).not.toThrow();
  });
});

describe('forbiddenKey (read from the parsed body)', () => {
  it.each([
    ['__proto__ at the top', '{"name":"x","__proto__":{"admin":true}}', '__proto__'],
    ['constructor nested in an object', '{"a":{"b":{"constructor":1}}}', 'constructor'],
    ['prototype inside an array', '{"list":[1,{"ok":true},{"prototype":null}]}', 'prototype'],
    ['a key spelled with escapes', '{"\\u005f_proto__":1}', '__proto__'],
    ['the outermost of two', '{"a":{"__proto__":1},"constructor":2}', 'constructor'],
  ])('names %s', (_name, json, key) => {
    expect(forbiddenKey(JSON.parse(json))).toBe(key);
  });

  it.each([
    ['ordinary keys', '{"title":"t","content":{"proto":1,"constructors":[],"x":{"prototypes":"__proto__"}}}'],
    ['the words as values only', '["__proto__","constructor"]'],
    ['a scalar body', '"__proto__"'],
    ['null', 'null'],
  ])('finds none in %s', (_name, json) => {
    expect(forbiddenKey(JSON.parse(json))).toBeUndefined();
  });
});
