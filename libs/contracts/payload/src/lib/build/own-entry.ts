/** Own-property lookup: a language code or field key like "constructor" must not hit Object.prototype. */
export function ownEntry<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
