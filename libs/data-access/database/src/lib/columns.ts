/** How one column of a multi-row statement is read off a row. */
export type Column<R> = (row: R) => unknown;

/**
 * The parameters of an `unnest($1::…[], $2::…[], …)` statement: one array per column, in the columns' order, each
 * holding that column of every row.
 *
 * Pass columns defined once, at module level, not arrow functions written in the call. V8 keeps a function's
 * optimized code only while a closure of it lives, so pickers made on every call are compiled again after every full
 * collection, which in a pod comes every second or two (docs/performance.md, thirty-second round).
 */
export function columnsOf<R>(rows: readonly R[], columns: readonly Column<R>[]): unknown[][] {
  const values: unknown[][] = [];
  for (const column of columns) {
    const value = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) value[i] = column(rows[i]);
    values.push(value);
  }
  return values;
}
