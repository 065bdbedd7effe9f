// The OpenTelemetry attribute names the API's request spans and the dispatcher's attempt spans set (stable HTTP
// semantic conventions), written out: importing @opentelemetry/semantic-conventions for these eight held all of its
// 664 constants, ~0.8 MB of heap, in both services (docs/performance.md, eighteenth round). http-span-attributes.spec.ts
// holds each to the package's own.
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_REQUEST_RESEND_COUNT = 'http.request.resend_count';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_URL_FULL = 'url.full';
export const ATTR_URL_PATH = 'url.path';
export const ATTR_URL_SCHEME = 'url.scheme';
