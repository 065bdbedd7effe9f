/** Comparison by UTF-16 code units: unlike localeCompare it does not depend on the host's locale data. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Maps a record into a new one whose keys are inserted in sorted order, so input key order never reaches the body. */
export function mapSorted<T, R>(record: Record<string, T>, map: (value: T, key: string) => R): Record<string, R> {
  const out: Record<string, R> = {};
  for (const key of Object.keys(record).sort(compareCodeUnits)) {
    out[key] = map(record[key], key);
  }
  return out;
}
