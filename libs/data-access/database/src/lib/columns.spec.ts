import { columnsOf, type Column } from './columns';

describe('columnsOf', () => {
  const ROW_COLUMNS: readonly Column<{ id: string; n: number }>[] = [(r) => r.id, (r) => r.n * 2];

  it('gives one array per column, in the columns\' order, with the rows in their order', () => {
    expect(columnsOf([{ id: 'a', n: 1 }, { id: 'b', n: 2 }], ROW_COLUMNS)).toEqual([['a', 'b'], [2, 4]]);
  });

  it('gives an empty array per column when there are no rows', () => {
    expect(columnsOf([], ROW_COLUMNS)).toEqual([[], []]);
  });
});
