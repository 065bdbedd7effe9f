import { isIP } from 'node:net';
import { normalizeHostname } from './hostname';
import type { UrlRule } from './rules';

export type ParsedTargetUrl =
  | {
      readonly ok: true;
      /** Canonical href: fragment removed, trailing host dots removed. */
      readonly url: string;
      /** Lower-case, no brackets, no trailing dot. */
      readonly hostname: string;
      readonly ipLiteral: boolean;
    }
  | { readonly ok: false; readonly rule: UrlRule; readonly reason: string };

const SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:']);

/**
 * WHATWG URL parsing, the same the HTTP client uses, so `http://0x7f.1/` is seen as 127.0.0.1 here too.
 * Reasons never echo the input: it may carry credentials or tokens in the query.
 */
export function parseTargetUrl(input: string): ParsedTargetUrl {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('invalid-url', 'the recipient URL is not a valid absolute URL');
  }
  if (!SCHEMES.has(url.protocol)) {
    return refuse('unsupported-scheme', `only http and https URLs are allowed, not ${url.protocol.slice(0, 20)}`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('url-credentials', 'the recipient URL must not contain a user name or password; use the secret');
  }
  url.hash = '';
  const hostname = normalizeHostname(url.hostname);
  if (hostname === '') {
    return refuse('invalid-url', 'the recipient URL has no host');
  }
  if (url.hostname.endsWith('.')) {
    url.hostname = hostname;
  }
  return { ok: true, url: url.href, hostname, ipLiteral: isIP(hostname) !== 0 };
}

function refuse(rule: UrlRule, reason: string): ParsedTargetUrl {
  return { ok: false, rule, reason };
}
