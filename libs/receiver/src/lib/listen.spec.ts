import { sign } from './sign';
import { listen, Listener } from './listen';

const SECRET = 'listen-secret';
const NOW = 1700000000;
const body = (revision: number): string => JSON.stringify({ event: 'result.published', result_id: 'res_9', revision, title: 'T' });

function signed(raw: string, secret = SECRET): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-SH-Delivery': 'dlv_1',
    'X-SH-Timestamp': String(NOW),
    'X-SH-Signature': sign(secret, NOW, raw),
    Authorization: `Bearer ${secret}`,
  };
}

describe('listen', () => {
  let listener: Listener | undefined;
  const lines: string[] = [];
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
    lines.length = 0;
  });

  async function start(options: Partial<Parameters<typeof listen>[0]> = {}): Promise<string> {
    listener = await listen({ secret: SECRET, port: 0, now: () => NOW, print: (line) => lines.push(line), ...options });
    return listener.url;
  }

  async function post(url: string, raw: string, headers = signed(raw)): Promise<{ status: number; text: string }> {
    const res = await fetch(`${url}/hook`, { method: 'POST', headers, body: raw });
    return { status: res.status, text: await res.text() };
  }

  it('answers 204 by default and prints event, result, revision and the verification', async () => {
    const url = await start();
    expect(await post(url, body(2))).toEqual({ status: 204, text: '' });
    expect(lines).toEqual([
      '#1 POST /hook  event=result.published  result=res_9  revision=2  delivery=dlv_1  verification=signature ok  -> 204',
    ]);
  });

  it('answers the scripted statuses in order, repeating the last (watch the retries)', async () => {
    const url = await start({ statuses: [500, 503, 200] });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(url, body(1))).status);
    expect(statuses).toEqual([500, 503, 200, 200]);
    expect(lines.map((l) => l.split('  -> ')[1])).toEqual(['500', '503', '200', '200']);
  });

  it('answers 409 with {"revision": n} for the 409 protocol', async () => {
    const url = await start({ statuses: [409], revision: 5 });
    expect(await post(url, body(3))).toEqual({ status: 409, text: '{"revision":5}' });
    expect(lines[0]).toMatch(/revision=3 .* -> 409 \{"revision":5\}$/);
  });

  it('answers 401 and prints the reason when the signature does not match the secret', async () => {
    const url = await start({ statuses: [200] });
    expect(await post(url, body(1), signed(body(1), 'other'))).toEqual({ status: 401, text: '{"error":"signature failed: signature_mismatch"}' });
    expect(lines[0]).toContain('verification=signature failed: signature_mismatch  -> 401');
  });

  it('uses the injected clock for the timestamp tolerance', async () => {
    const url = await start({ now: () => NOW + 301 });
    expect((await post(url, body(1))).status).toBe(401);
    expect(lines[0]).toContain('verification=signature failed: timestamp_out_of_tolerance');
  });

  it('says when only the Bearer form passed', async () => {
    const url = await start();
    const { 'X-SH-Signature': _dropped, ...bearerOnly } = signed(body(1));
    expect((await post(url, body(1), bearerOnly)).status).toBe(204);
    expect(lines[0]).toContain('verification=bearer ok');
  });

  it('without a secret verifies nothing and still prints the delivery', async () => {
    const url = await start({ secret: undefined, statuses: [202] });
    expect((await post(url, 'not json', { 'Content-Type': 'application/json' })).status).toBe(202);
    expect(lines[0]).toBe('#1 POST /hook  event=(body is not JSON)  result=-  revision=-  delivery=-  verification=not checked (no secret given)  -> 202');
  });

  it('replaces control characters from the request before printing', async () => {
    const url = await start();
    const raw = JSON.stringify({ event: 'a\u001b[2Jb', result_id: 'r', revision: 1 });
    await post(url, raw);
    expect(lines[0]).toContain('event=a?[2Jb ');
  });
});
