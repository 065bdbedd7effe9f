/* eslint-disable @typescript-eslint/no-explicit-any -- API answers are read as loose JSON in the system tests */
/** A thin JSON client for the manifest-api, failing loudly on unexpected statuses. */
export class ApiClient {
  constructor(private readonly base: string, private readonly token: string) {}

  /** The plain answer, whatever its status (for tests of error answers). */
  request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    return fetch(`${this.base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  }

  async call<T = Record<string, any>>(method: string, path: string, body?: unknown, expected = [200, 201, 202, 204]): Promise<T> {
    const res = await this.request(method, path, body);
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
}
