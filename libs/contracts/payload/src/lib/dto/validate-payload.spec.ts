import { buildPayload } from '../build/build-payload';
import { GOLDEN_FIXTURES } from '../fixtures/golden-fixtures';
import { articleInput } from '../testing/input.factory';
import { invalidPayloads } from '../testing/invalid-payloads';
import { validatePayload } from './validate-payload';

const parse = (body: Buffer): unknown => JSON.parse(body.toString('utf8'));

describe('validatePayload (class-validator)', () => {
  it.each(GOLDEN_FIXTURES.map((fixture) => [fixture.file, fixture.input] as const))('accepts the %s fixture', (_file, input) => {
    expect(validatePayload(parse(buildPayload(input).body))).toEqual([]);
  });

  it('accepts a text-only cluster.updated of an article', () => {
    const input = articleInput({ revision: { revision: 2, workflowExecution: 'exec_2' }, event: { isFirstDelivery: false } });
    expect(validatePayload(parse(buildPayload(input).body))).toEqual([]);
  });

  it.each(invalidPayloads())('rejects %s', (_name, body) => {
    expect(validatePayload(body)).not.toEqual([]);
  });

  it('answers a null block with a problem naming it, as the paths of the other problems read, instead of throwing', () => {
    const body = parse(buildPayload(articleInput()).body) as { sections: { blocks: unknown[] }[] };
    body.sections[0].blocks.push(null);
    expect(validatePayload(body)).toEqual([`sections.0.blocks.${body.sections[0].blocks.length - 1}: each block must be an object`]);
  });

  it('rejects articles_count that does not match articles', () => {
    const body = parse(buildPayload(articleInput()).body) as Record<string, unknown>;
    expect(validatePayload({ ...body, articles_count: 7 })).toContain('articles_count: articles_count must equal articles.length');
  });

  it('rejects workflow.action whose workflow_execution is not the result id', () => {
    const body = parse(buildPayload(articleInput()).body) as Record<string, unknown>;
    expect(validatePayload({ ...body, workflow_execution: 'other' })).toContain(
      'event: workflow.action needs workflow_execution equal to result_id',
    );
  });

  it('rejects something that is not an object', () => {
    expect(validatePayload([])).toEqual(['payload must be a JSON object']);
  });
});
