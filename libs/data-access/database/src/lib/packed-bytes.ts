/**
 * Values of a multi-row statement as ONE binary parameter: their bytes one after another (text as UTF-8), with where
 * each starts (counting from 1, as SQL does) and its length in bytes, for `substring($n::bytea FROM start FOR length)`
 * (and `convert_from(…, 'UTF8')` for text). pg sends a Buffer in binary; an array of bytea or long text would go as an
 * array literal, escaped (bytea as hex text) by the driver and parsed back by PostgreSQL.
 */
export function packBytes(values: readonly (string | Buffer)[]): { bytes: Buffer; starts: number[]; lengths: number[] } {
  const lengths = values.map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : v.length));
  const bytes = Buffer.allocUnsafe(lengths.reduce((sum, n) => sum + n, 0));
  const starts: number[] = [];
  let offset = 0;
  for (const value of values) {
    starts.push(offset + 1);
    offset += typeof value === 'string' ? bytes.write(value, offset) : value.copy(bytes, offset);
  }
  return { bytes, starts, lengths };
}
