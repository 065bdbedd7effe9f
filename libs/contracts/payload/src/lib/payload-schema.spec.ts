import { buildPayload } from './build/build-payload';
import { GOLDEN_FIXTURES } from './fixtures/golden-fixtures';
import { articleInput, clusterModeInput } from './testing/input.factory';
import { invalidPayloads } from './testing/invalid-payloads';
import { schemaErrors } from './testing/schema-validator';

const parse = (body: Buffer): unknown => JSON.parse(body.toString('utf8'));

describe('docs/schemas/payload-v5.schema.json', () => {
  it.each(GOLDEN_FIXTURES.map((fixture) => [fixture.file, fixture.input] as const))('accepts the %s fixture', (_file, input) => {
    expect(schemaErrors(parse(buildPayload(input).body))).toEqual([]);
  });

  it('accepts a text-only cluster.updated of an article (parent_execution null, new_articles [])', () => {
    const input = articleInput({ revision: { revision: 2, workflowExecution: 'exec_2' }, event: { isFirstDelivery: false } });
    expect(schemaErrors(parse(buildPayload(input).body))).toEqual([]);
  });

  it('accepts a payload with every block type and every fallback form', () => {
    const input = articleInput({
      contract: { origin: 'manual', sectionTypes: [], blockTypes: [] },
      revision: {
        sections: [
          {
            key: 'all',
            type: 'gallery',
            blocks: [
              { type: 'image', url: 'https://img.example.com/a.jpg', alt: 'A', attribution: 'Photo: B' },
              { type: 'list', ordered: true, items: ['one', 'two'] },
              { type: 'table', header: ['k'], rows: [['v']] },
              { type: 'heading', level: 4, text: 'h' },
            ],
          },
        ],
      },
    });
    expect(schemaErrors(parse(buildPayload(input).body))).toEqual([]);
  });

  it('accepts a cluster payload with the second-language switch on (no locales in cluster mode)', () => {
    expect(schemaErrors(parse(buildPayload(clusterModeInput()).body))).toEqual([]);
  });

  it.each(invalidPayloads())('rejects %s', (_name, body) => {
    expect(schemaErrors(body)).not.toEqual([]);
  });
});
