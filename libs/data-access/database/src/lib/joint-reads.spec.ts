import { jointStatement } from './joint-reads';

describe('jointStatement (reads in one statement)', () => {
  it('makes each read a JSON column of one SELECT, numbering each one\'s parameters after the ones before it', () => {
    const { sql, params } = jointStatement([
      { sql: 'SELECT * FROM a WHERE id = ANY($1::text[])', params: [['x']] },
      { sql: 'SELECT v FROM b WHERE k = $1 AND j = $2', params: [1, 2] },
    ]);
    expect(sql).toBe('SELECT (SELECT json_agg(r0) FROM (SELECT * FROM a WHERE id = ANY($1::text[])) r0) AS r0, '
      + '(SELECT json_agg(r1) FROM (SELECT v FROM b WHERE k = $2 AND j = $3) r1) AS r1');
    expect(params).toEqual([['x'], 1, 2]);
  });
});
