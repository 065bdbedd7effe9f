/** node's IncomingHttpHeaders (or any plain object of headers). */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The Fetch API Headers, or anything with a case-insensitive get(). */
export interface HeaderGetter {
  get(name: string): string | null;
}

export type HeaderSource = HeaderRecord | HeaderGetter;

/** Case-insensitive single header value; undefined when absent or empty. */
export function getHeader(headers: HeaderSource, name: string): string | undefined {
  const raw = isGetter(headers) ? headers.get(name) : fromRecord(headers, name.toLowerCase());
  // Repeated headers are joined the way node does, so they fail the format checks instead of being picked.
  const joined = raw == null ? '' : typeof raw === 'string' ? raw : raw.join(', ');
  const value = joined.trim();
  return value === '' ? undefined : value;
}

function isGetter(headers: HeaderSource): headers is HeaderGetter {
  return typeof (headers as Partial<HeaderGetter>).get === 'function';
}

function fromRecord(headers: HeaderRecord, lowerName: string): string | readonly string[] | undefined {
  // node already lower-cases names; the scan covers hand-built objects such as { 'X-SH-Signature': ... }.
  if (Object.hasOwn(headers, lowerName)) return headers[lowerName];
  const key = Object.keys(headers).find((k) => k.toLowerCase() === lowerName);
  return key === undefined ? undefined : headers[key];
}
