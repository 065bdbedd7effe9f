import { toUtcTimestamp } from './timestamp';

describe('toUtcTimestamp', () => {
  it.each([
    ['2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000+00:00'],
    ['2026-11-21T10:00:00.000+00:00', '2026-11-21T10:00:00.000+00:00'],
    ['2026-11-21T11:30:00+01:30', '2026-11-21T10:00:00.000+00:00'],
    ['2026-11-20T23:30:00-05:00', '2026-11-21T04:30:00.000+00:00'],
    ['2026-11-21T10:00:00.123456Z', '2026-11-21T10:00:00.123+00:00'],
  ])('writes %s as %s', (input, expected) => {
    expect(toUtcTimestamp(input, 'executedAt')).toBe(expected);
  });

  it.each([
    '2026-11-21T10:00:00', '2026-11-21', '21.11.2026 10:00', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '',
    // ISO 8601 but not RFC 3339, so not what intake accepts (issue #18): no seconds, a space, basic form, week date.
    '2026-11-21T10:00Z', '2026-11-23 10:00:00+02:00', '20261123T100000Z', '2026-W48-1T10:00:00Z',
  ])(
    'refuses %j: not an RFC 3339 timestamp with offset on a real day',
    (input) => {
      expect(() => toUtcTimestamp(input, 'executedAt')).toThrow(expect.objectContaining({ code: 'invalid_timestamp' }));
    },
  );
});
