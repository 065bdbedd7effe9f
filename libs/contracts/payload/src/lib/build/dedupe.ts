/** Drops repeated values, keeping the first occurrence and the original order. */
export function dedupe(values: readonly string[], keyOf: (value: string) => string = (value) => value): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const key = keyOf(value);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}
