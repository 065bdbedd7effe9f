// Signing throughput on a realistic ~4 KB payload v5 body. Run: npm run bench -- signer [seconds]
import { hrtime } from 'node:process';
// Relative path to the public index: tsx does not read tsconfig.base.json paths.
import { buildDeliveryHeaders, sign, verify } from '../libs/util/signer/src/index';
import { machine, writeResult } from './support/output';

const SECONDS = Number(process.argv[2] ?? 3);
const SECRET = 'bench-secret-0123456789abcdef';
const TIMESTAMP = 1700000000;

// Self-contained sample shaped like spec 2.2 so the bench does not depend on the payload library.
function samplePayload(): Buffer {
  const paragraph = 'Městská rada schválila rozpočet na opravu mostu; práce začnou v dubnu a potrvají do podzimu. ';
  const body = paragraph.repeat(10);
  const payload = {
    payload_version: 5,
    mode: 'article',
    event: 'workflow.action',
    result_id: 'res_01HZX8Q4K9T2M7B3N6P5R1S0V',
    revision: 1,
    workflow_execution: 'res_01HZX8Q4K9T2M7B3N6P5R1S0V',
    workflow_name: 'Regional news digest',
    title: 'Rada schválila opravu mostu',
    lead: 'Oprava začne v dubnu a skončí na podzim.',
    executed_at: '2024-05-01T08:30:00+02:00',
    published_at: '2024-05-01T08:30:00+02:00',
    source_lang: 'cs',
    articles_count: 3,
    articles: [1, 2, 3].map((i) => ({ id: `art_${i}`, url: `https://news.example.com/a/${i}`, title: `Zdroj ${i}` })),
    clusters: [{ description: 'Oprava mostu přes řeku' }],
    llm_response: `## Oprava mostu\n\n${body}`,
    locales: {
      cs: {
        title: 'Rada schválila opravu mostu',
        slug: 'rada-schvalila-opravu-mostu',
        lead: 'Oprava začne v dubnu.',
        body,
        seo_description: 'Oprava mostu.',
        body_html: `<p>${body}</p>`,
      },
    },
    steps: { brief: { text: 'Shrň zprávy o mostu.', model: 'model-x', tokens: 812, cost: 0.0041 } },
    ai_model: 'model-x',
    tokens_used: 3120,
    cost: 0.0153,
    tags: ['most', 'rozpočet', 'doprava'],
  };
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

const rows: Record<string, { 'ops/s': number; 'µs/op': number; ops: number }> = {};

function measure(label: string, op: () => unknown): void {
  for (let i = 0; i < 2000; i++) op(); // warm-up so the JIT has settled before timing
  const budget = BigInt(Math.round(SECONDS * 1e9));
  const start = hrtime.bigint();
  let ops = 0;
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 1000; i++) op(); // read the clock per batch so it does not dominate the loop
    ops += 1000;
    elapsed = hrtime.bigint() - start;
  }
  const seconds = Number(elapsed) / 1e9;
  rows[label] = { 'ops/s': Math.round(ops / seconds), 'µs/op': Number(((seconds / ops) * 1e6).toFixed(2)), ops };
}

const body = samplePayload();
const input = { resultId: 'res_1', deliveryId: 'dlv_1', timestamp: TIMESTAMP, rawBody: body, secret: SECRET };
const headers = buildDeliveryHeaders(input);
const received = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
if (!verify(SECRET, received, body, { now: TIMESTAMP }).ok) throw new Error('bench setup: signature does not verify');

console.log(`\nsigner: body ${body.length} bytes, ${SECONDS} s per case, one core`);
measure('sign', () => sign(SECRET, TIMESTAMP, body));
measure('buildDeliveryHeaders', () => buildDeliveryHeaders({ ...input, rawBody: body }));
measure('verify', () => verify(SECRET, received, body, { now: TIMESTAMP }));
console.table(rows);
writeResult('signer', { machine: machine(), settings: { seconds: SECONDS, bodyBytes: body.length }, cases: rows });
