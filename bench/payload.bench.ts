// Payload v5 build + serialise throughput on a realistic ~4 KB article. Run: npm run bench -- payload [seconds]
import { hrtime } from 'node:process';
import * as lib from '../libs/contracts/payload/src/index';
import { machine, writeResult } from './support/output';

// The libraries' DTOs use legacy decorators, which tsx compiles only under a tsconfig that includes their files and
// sets experimentalDecorators: scripts/bench.sh runs this scenario with TSX_TSCONFIG_PATH=bench/tsconfig.json.

const SECONDS = Number(process.argv[2] ?? 3);

const paragraph =
  'The city council approved the bridge repair budget on Tuesday; work starts in April and should end before autumn. ';
const markdown = [
  'The council voted 31 to 4 for the repair.',
  '## What changes for commuters',
  paragraph.trim(),
  '| Phase | Lanes open | Until |\n|:--|--:|:-:|\n| Deck | 1 | June |\n| Railings | 2 | September |',
  '> One lane stays open.',
  '## Why now',
  paragraph.trim(),
].join('\n\n');

function benchInput(seq: number): lib.BuildPayloadInput {
  return {
    revision: {
      resultId: 'res_01HZX8Q4K9T2M7B3N6P5R1S0V',
      revision: 1,
      mode: 'article',
      workflowExecution: 'res_01HZX8Q4K9T2M7B3N6P5R1S0V',
      executedAt: '2026-11-21T08:30:00+02:00',
      title: 'Council approves bridge repair',
      lead: 'Repairs start in April and end before autumn; one lane stays open throughout.',
      // A sequence number makes every body distinct, so the cold run cannot reuse a rendering.
      body: seq < 0 ? markdown : `${markdown}\n\nRevision note ${seq}.`,
      sourceLang: 'en',
      locales: {},
      steps: {
        brief: { text: 'Bridge repair, vote, closures', model: 'gpt-4.1-mini', tokens: 180, cost: 0.0002 },
        draft: { text: 'The council voted for the repair.', model: 'gpt-4.1', tokens: 1450, cost: 0.0071 },
      },
      articles: [1, 2].map((i) => ({
        id: `art_${i}`,
        title: `Bridge repair source ${i}`,
        url: `https://news.example.com/a/${i}`,
        source: 'Example News',
        publishedAt: `2026-11-2${i}T07:00:00+01:00`,
        lang: 'en',
      })),
      clusters: [{ id: 'clu_1', description: 'Bridge repair vote', keywords: ['bridge', 'council', 'traffic'], version: 1 }],
      sections: [
        {
          key: 'main',
          type: 'content',
          blocks: [
            { type: 'paragraph', text: 'The council voted 31 to 4 for the repair.' },
            { type: 'heading', level: 2, text: 'What changes for commuters' },
            { type: 'paragraph', text: paragraph.trim() },
            { type: 'table', header: ['Phase', 'Lanes open', 'Until'], rows: [['Deck', '1', 'June'], ['Railings', '2', 'September']] },
            { type: 'quote', text: 'We will keep one lane open for the whole time.', cite: 'City engineer' },
          ],
        },
        { key: 'timeline', type: 'timeline', blocks: [{ type: 'list', ordered: true, items: ['April: start', 'June: deck', 'September: done'] }] },
      ],
      image: { url: 'https://img.example.com/bridge.jpg', attribution: 'Photo: City archive' },
      aiModel: 'gpt-4.1',
      tokensUsed: 1630,
      cost: 0.0073,
    },
    goal: { name: 'Regional news digest', secondLanguageEnabled: false, secondLanguage: null, publishPolicy: 'moderation' },
    contract: { origin: 'receiver', sectionTypes: ['content'], blockTypes: ['paragraph', 'heading', 'list'] },
    receiverFields: {
      reportedFields: [{ key: 'desk', label: 'Desk', type: 'text', required: true, multiple: false }],
      values: { desk: 'City' },
    },
    event: { isFirstDelivery: true },
  };
}

const rows: Record<string, { 'ops/s': number; 'body bytes': number }> = {};

function run(name: string, build: (i: number) => Buffer): void {
  for (let i = 0; i < 500; i++) build(i); // warm-up: JIT and caches
  let ops = 0;
  let bytes = 0;
  const start = hrtime.bigint();
  const end = start + BigInt(Math.round(SECONDS * 1e9));
  while (hrtime.bigint() < end) {
    bytes = build(ops).length;
    ops++;
  }
  const seconds = Number(hrtime.bigint() - start) / 1e9;
  rows[name] = { 'ops/s': Math.round(ops / seconds), 'body bytes': bytes };
}

const sameRevision = benchInput(-1);
console.log(`\npayload builder: ${SECONDS} s per case, one core`);
const sameRevisionJson = JSON.stringify(sameRevision);
run('build+serialise, same revision (rendering reused)', () => lib.buildPayload(sameRevision).body);
run('JSON.parse(event) + build+serialise, same revision', () => lib.buildPayload(JSON.parse(sameRevisionJson) as lib.BuildPayloadInput).body);
run('build+serialise, new markdown every time (cold render)', (i) => lib.buildPayload(benchInput(i)).body);
run('markdown-it + sanitize-html only, cold', (i) => {
  lib.clearRenderCache();
  return Buffer.from(lib.renderMarkdown(`${markdown}\n\nRevision note ${i}.`).html);
});
console.table(rows);
writeResult('payload', { machine: machine(), settings: { seconds: SECONDS }, cases: rows });
