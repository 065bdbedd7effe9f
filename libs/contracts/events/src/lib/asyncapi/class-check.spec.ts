import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsBase64, IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength, validateSync } from 'class-validator';
import { IsRfc3339DateTime } from '../formats/format.decorators';
import { compileClassCheck } from './class-check';
import { BASE64_PATTERN } from './json-schema';

class Sample {
  @IsInt() attempt!: number;
  @IsOptional() @IsNumber() cost?: number | null;
  // Without the u flag, `\p` is a plain `p` and `.` matches each half of a surrogate pair: as class-validator reads it.
  @IsOptional() @IsString() @Matches(new RegExp('^\\p{2}$|^.{2}$')) code?: string;
  @IsOptional() @IsUrl({ require_protocol: true, protocols: ['https'], require_tld: false }) site?: string;
  @IsOptional() @IsRfc3339DateTime() at?: string;
  @IsOptional() @IsString() @MinLength(2) @MaxLength(3) word?: string;
}

const byClassValidator = (value: object) =>
  validateSync(plainToInstance(Sample, value), { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }).length === 0;

describe('compileClassCheck', () => {
  const check = compileClassCheck(Sample, true);

  it.each([
    ['an integer', { attempt: 1 }],
    ['Infinity where an integer is due (JSON.parse reads 1e999 so)', { attempt: Infinity }],
    ['Infinity where a number is due', { attempt: 1, cost: -Infinity }],
    ['a fraction where an integer is due', { attempt: 1.5 }],
    ['null where optional', { attempt: 1, cost: null, code: null, site: null }],
    ['a pattern read without the u flag', { attempt: 1, code: 'pp' }],
    ['one astral character against `.{2}`', { attempt: 1, code: '😀' }],
    ['a URL on a host without a top-level domain', { attempt: 1, site: 'https://intranet:8443/x' }],
    ['a URL of a refused protocol', { attempt: 1, site: 'http://example.com/' }],
    ['a URL without a protocol', { attempt: 1, site: 'example.com' }],
    ['a date-time with an offset', { attempt: 1, at: '2026-11-23T10:00:00+02:00' }],
    ['a date-time without one', { attempt: 1, at: '2026-11-23T10:00:00' }],
    ['an unknown key', { attempt: 1, extra: true }],
    ['a word long enough', { attempt: 1, word: 'ab' }],
    ['a word too short once its variation selector is not counted', { attempt: 1, word: 'a\uFE0F' }],
    ['a word short enough once its variation selectors are not counted', { attempt: 1, word: 'abc\uFE0F' }],
    ['a word too long', { attempt: 1, word: 'abcd' }],
    ['an astral character counted once', { attempt: 1, word: '😀😀' }],
  ])('judges %s as class-validator does', (_name, value) => {
    expect(check(value)).toBe(byClassValidator(value));
  });
});

class Encoded {
  @IsBase64() body!: string;
}

describe('compileClassCheck, a base64 field', () => {
  const check = compileClassCheck(Encoded, true);
  const published = new RegExp(BASE64_PATTERN);

  it.each([
    ['an empty string', ''],
    ['canonical, padded twice', 'QQ=='],
    ['canonical, padded once', 'QUI='],
    ['canonical, no padding needed', 'QUJD'],
    ['a long canonical body', Buffer.from('x'.repeat(5000) + '\u00e9').toString('base64')],
    ['stray bits in the last character (not canonical, still the pattern)', 'QR=='],
    ['stray bits before a single pad', 'QUJ='],
    ['no padding', 'QQ'],
    ['the URL-safe alphabet', 'a-_b'],
    ['a line break inside', 'QUJD\nQUJD'],
    ['a space at the end', 'QUJD '],
    ['padding in the middle', 'QQ==QUJD'],
    ['three pads', 'Q==='],
    ['a character outside the alphabet', 'QUJ*'],
  ])('accepts %s exactly when the published pattern does', (_name, body) => {
    expect(check({ body })).toBe(published.test(body));
  });

  it('accepts the non-canonical strings the pattern accepts', () => {
    expect(check({ body: 'QR==' })).toBe(true);
    expect(check({ body: 'QQ' })).toBe(false);
  });
});
