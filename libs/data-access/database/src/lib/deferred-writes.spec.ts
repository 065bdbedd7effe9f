import { combine } from './deferred-writes';

describe('combine (deferred writes as one statement)', () => {
  it('makes each write a part of one WITH, numbering each one\'s parameters after the ones before it', () => {
    const { sql, params } = combine([
      { sql: 'INSERT INTO a SELECT * FROM unnest($1::int[], $2::text[])', params: [[1], ['x']] },
      { sql: 'UPDATE b SET v = $2 WHERE id = $1 AND w = $1', params: [7, 'y'] },
      { sql: 'INSERT INTO c (v) VALUES ($1) RETURNING id::text AS id', params: ['z'], returned: () => undefined },
    ]);
    expect(sql).toBe([
      'WITH w0 AS (INSERT INTO a SELECT * FROM unnest($1::int[], $2::text[])),',
      'w1 AS (UPDATE b SET v = $4 WHERE id = $3 AND w = $3),',
      'w2 AS (INSERT INTO c (v) VALUES ($5) RETURNING id::text AS id)',
      'SELECT (SELECT json_agg(w2) FROM w2) AS w2',
    ].join('\n'));
    expect(params).toEqual([[1], ['x'], 7, 'y', 'z']);
  });

  it('selects a constant when no write returns rows, and refuses a parameter a write does not have', () => {
    expect(combine([{ sql: 'DELETE FROM a WHERE id = $1', params: [1] }, { sql: 'DELETE FROM b', params: [] }]).sql).toMatch(/\nSELECT 1$/);
    expect(() => combine([{ sql: 'DELETE FROM a WHERE id = $2', params: [1] }])).toThrow(/uses \$2 but has 1 parameters/);
  });
});
