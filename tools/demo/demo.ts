// The `npm start` demo: a workspace, a goal pointing at the local demo receiver with a secret, a Send
// test, Production mode, one result approved — then it follows the result until the receiver has it.
import { readFileSync } from 'node:fs';

const api = process.env['API_URL'] ?? 'http://127.0.0.1:3000';
const receiverUrl = process.env['RECEIVER_URL'] ?? 'http://127.0.0.1:4000/webhook';
const adminToken = process.env['ADMIN_TOKEN'] ?? '';
const secret = process.env['RECEIVER_SECRET'] ?? '';
const receiverLog = process.env['RECEIVER_LOG'] ?? '.local/logs/receiver.log';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a demo printing API answers

async function call(token: string, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${api}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? (JSON.parse(text) as Json) : {};
}

const step = (text: string) => console.log(`    ${text}`);

async function main(): Promise<void> {
  const ws = await call(adminToken, 'POST', '/workspaces', { name: 'Demo newsroom' });
  const { token } = await call(adminToken, 'POST', `/workspaces/${ws['id']}/tokens`, { name: 'demo' });
  step(`workspace ${ws['id']} and an API token (shown once, stored only as a hash)`);

  const goal = await call(token, 'POST', '/goals', {
    name: 'Demo: economy desk', sourceLang: 'en', recipientUrl: receiverUrl, publishPolicy: 'draft',
  });
  await call(token, 'PUT', `/goals/${goal['id']}/secret`, { secret });
  step(`goal ${goal['id']} → ${receiverUrl} (mode: ${goal['deliveryMode']}, secret set)`);

  const test = await call(token, 'POST', `/goals/${goal['id']}/send-test`, {});
  step(`Send test: ${test['outcome']}, receiver answered ${test['response']?.['status']} in ${test['durationMs']} ms (verified: ${test['verified']})`);

  await call(token, 'PATCH', `/goals/${goal['id']}`, { deliveryMode: 'production' });
  step('switched to Production');

  const result = await call(token, 'POST', `/goals/${goal['id']}/results`, {
    mode: 'article', executedAt: new Date().toISOString(), title: 'Grain prices fall for a third week',
    lead: 'Harvest estimates rose again.', body: 'Grain prices fell for a third week.\n\n## What traders watch\n\n| Crop | Change |\n|---|---|\n| Wheat | -2.1 % |',
    locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null, aiModel: 'demo-model', tokensUsed: 1200, cost: 0.004,
  });
  step(`result ${result['id']} accepted (revision ${result['revision']}): ${result['state']?.['status']}`);
  await waitFor(token, result['id'], (s) => s === 'awaiting_approval', 'awaiting approval');
  await call(token, 'POST', `/results/${result['id']}/approve`, {});
  step('approved');

  const done = await waitFor(token, result['id'], (s) => s === 'delivered' || s === 'failed', 'delivered');
  const last = done['attempts']?.[done['attempts'].length - 1];
  step(`result state: ${done['state']['status']} (attempt ${last?.['attempt']}, HTTP ${last?.['status']}, ${last?.['durationMs']} ms)`);
  const seen = readFileSync(receiverLog, 'utf8').split('\n').filter((l) => l.includes(result['id']));
  step(`receiver: ${seen[seen.length - 1] ?? '(nothing logged)'}`);
  if (done['state']['status'] !== 'delivered' || seen.length === 0) process.exit(1);
  console.log('\n    ✔ the result travelled API → Kafka → payload-builder → dispatcher → receiver, signature verified');
}

async function waitFor(token: string, id: string, ok: (status: string) => boolean, what: string): Promise<Json> {
  const deadline = Date.now() + 60_000;
  let last: Json = {};
  while (Date.now() < deadline) {
    last = await call(token, 'GET', `/results/${id}`);
    if (ok(String(last['state']?.['status']))) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`result ${id} did not become ${what}; last state ${JSON.stringify(last['state'])}`);
}

main().catch((err) => {
  console.error(`demo failed: ${(err as Error).message}`);
  process.exit(1);
});
