import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { isAsciiEmail, isRfc3339DateTime, isUtcTimestamp } from './formats';

// An outside consumer's validator: ajv with ajv-formats, as the team validated docs/asyncapi.yaml.
const ajv = new Ajv({ strict: true });
addFormats(ajv);
const outside = {
  dateTime: ajv.compile({ type: 'string', format: 'date-time' }),
  email: ajv.compile({ type: 'string', format: 'email' }),
};

describe('isRfc3339DateTime (intake of executedAt, publishedAt; the payload-builder parses the same)', () => {
  it.each([
    '2026-11-23T10:00:00Z', '2026-11-23T10:00:00+02:00', '2026-11-23T10:00:00.123-05:30', '2026-11-23T10:00:00.123456789Z',
    '2028-02-29T00:00:00Z', '2026-11-23T23:59:59+14:00',
  ])('accepts %s, which a JSON Schema date-time validator accepts too', (value) => {
    expect(isRfc3339DateTime(value)).toBe(true);
    expect(outside.dateTime(value)).toBe(true);
  });

  it.each([
    '2026-11-23 10:00:00+02:00', '20261123T100000Z', '2026-W48-1T10:00:00Z', '2026-11-23T10:00Z', '2026-11-23T10:00:00',
    '2026-11-23', '2026-02-30T00:00:00Z', '2026-11-23T24:00:00Z', '2026-11-23t10:00:00z', '2026-11-23T10:00:00+0200', '',
  ])('refuses %j', (value) => {
    expect(isRfc3339DateTime(value)).toBe(false);
  });
});

describe('isUtcTimestamp (every timestamp inside an event)', () => {
  it('accepts what Date.prototype.toISOString writes', () => {
    const value = new Date('2026-11-21T10:00:00.500+02:00').toISOString();
    expect(isUtcTimestamp(value)).toBe(true);
    expect(outside.dateTime(value)).toBe(true);
  });

  it.each(['2026-11-21T10:00:00.000+00:00', '2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000000Z', '2026-02-30T00:00:00.000Z'])(
    'refuses %s: one spelling per instant, UTC with milliseconds and Z',
    (value) => expect(isUtcTimestamp(value)).toBe(false),
  );
});

describe('isAsciiEmail (intake of ownerEmail and goal.changed)', () => {
  it.each(['desk@example.com', 'first.last+tag@sub.example.co.uk', "o'brien@example.org"])(
    'accepts %s, which a JSON Schema email validator accepts too',
    (value) => {
      expect(isAsciiEmail(value)).toBe(true);
      expect(outside.email(value)).toBe(true);
    },
  );

  it.each(['josé-1603bd@example.com', 'desk@exämple.com', 'desk@example', 'desk@[127.0.0.1]', 'no-at.example.com', 'a b@example.com'])(
    'refuses %j (internationalised addresses are refused at intake, not published as idn-email)',
    (value) => expect(isAsciiEmail(value)).toBe(false),
  );
});
