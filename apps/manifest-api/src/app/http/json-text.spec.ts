import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldsWithNul, NotUtf8Error, refuseNonUtf8 } from './json-text';

const check = (bytes: Buffer) => () => refuseNonUtf8({} as IncomingMessage, {} as ServerResponse, bytes);
const json = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('refuseNonUtf8 (body-parser verify hook)', () => {
  it('accepts UTF-8, multi-byte and astral characters included', () => {
    expect(check(Buffer.from(JSON.stringify({ uk: 'Ціни на зерно', emoji: '🌾', cjk: '価格' })))).not.toThrow();
  });

  it.each([
    ['a stray continuation byte and bytes that never occur (C3 28 FF FE)', [0xc3, 0x28, 0xff, 0xfe]],
    ['an overlong "/" (C0 AF)', [0xc0, 0xaf]],
    ['a surrogate half (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['a sequence cut short at the end (E2 82)', [0xe2, 0x82]],
  ])('refuses %s as 415 entity.not.utf8', (_what, bytes) => {
    expect(check(json('{"name":"', bytes, '"}'))).toThrow(NotUtf8Error);
    expect(check(json('{"name":"', bytes, '"}'))).toThrow(expect.objectContaining({ status: 415, type: 'entity.not.utf8' }));
  });
});

describe('fieldsWithNul', () => {
  it('names the JSON path of every string holding U+0000, in objects and arrays', () => {
    const body = { name: 'a\u0000', fieldDefaults: { desk: ['eco', '\u0000'] }, sections: [{ blocks: [{ text: 'ok' }, { text: 'x\u0000y' }] }] };
    expect(fieldsWithNul(body).map((e) => e.field)).toEqual(['name', 'fieldDefaults.desk[1]', 'sections[0].blocks[1].text']);
  });

  it('names the object of a key holding U+0000 (the body itself at the top), never the key', () => {
    expect(fieldsWithNul({ values: { 'de\u0000sk': 'x' } })).toEqual([{ field: 'values', message: expect.stringMatching(/^keys .*U\+0000/) }]);
    expect(fieldsWithNul({ 'a\u0000': 1 })).toEqual([{ field: '(body)', message: expect.stringMatching(/^keys/) }]);
  });

  it('finds nothing in text without it (an escaped backslash-zero is just text), and stops after ten fields', () => {
    expect(fieldsWithNul({ name: '\\u0000 and \\0', n: 1, b: true, z: null })).toEqual([]);
    expect(fieldsWithNul(Array.from({ length: 50 }, () => '\u0000'))).toHaveLength(10);
  });
});
