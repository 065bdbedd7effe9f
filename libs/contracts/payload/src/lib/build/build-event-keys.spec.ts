import { PayloadInputError } from '../errors/payload-input.error';
import { articleInput, clusterModeInput } from '../testing/input.factory';
import { buildPayload } from './build-payload';

describe('event keys (§6)', () => {
  it('first delivery is workflow.action, with workflow_execution equal to result_id and no version keys', () => {
    const { payload } = buildPayload(articleInput({ revision: { parentExecution: 'exec_0', newArticles: ['art_1'] } }));
    expect(payload.event).toBe('workflow.action');
    expect(payload.workflow_execution).toBe(payload.result_id);
    expect(Object.keys(payload)).not.toContain('parent_execution');
    expect(Object.keys(payload)).not.toContain('new_articles');
  });

  it('refuses a first delivery whose execution is not the result id', () => {
    const build = (): unknown => buildPayload(articleInput({ revision: { workflowExecution: 'exec_other' } }));
    expect(build).toThrow(PayloadInputError);
    expect(build).toThrow(expect.objectContaining({ code: 'workflow_execution_mismatch' }));
  });

  it('a text-only change of a result with no previous version: cluster.updated, parent_execution null, new_articles []', () => {
    const input = articleInput({ revision: { revision: 2, workflowExecution: 'exec_2' }, event: { isFirstDelivery: false } });
    const { payload } = buildPayload(input);
    expect(payload.event).toBe('cluster.updated');
    expect(payload).toHaveProperty('parent_execution', null);
    expect(payload).toHaveProperty('new_articles', []);
    expect(payload.workflow_execution).toBe('exec_2');
  });

  it('a new cluster version with new articles carries the previous execution as parent_execution', () => {
    const input = clusterModeInput({
      revision: { revision: 3, workflowExecution: 'exec_3', parentExecution: 'exec_2', newArticles: ['art_9', 'art_8', 'art_9'] },
      event: { isFirstDelivery: false },
    });
    const { payload } = buildPayload(input);
    expect(payload.event).toBe('cluster.updated');
    expect(payload.parent_execution).toBe('exec_2');
    expect(payload.new_articles).toEqual(['art_9', 'art_8']);
    expect(Object.keys(payload).slice(-2)).toEqual(['parent_execution', 'new_articles']);
  });

  it('refuses cluster.updated at revision 1: a later version always has a higher revision', () => {
    const input = articleInput({ revision: { revision: 1 }, event: { isFirstDelivery: false } });
    expect(() => buildPayload(input)).toThrow(expect.objectContaining({ code: 'revision_not_increased' }));
  });
});
