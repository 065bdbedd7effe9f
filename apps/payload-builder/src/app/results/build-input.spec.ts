import { buildPayload, type ResultRevisionInput } from '@owd/payload';
import type { ContractSnapshot, GoalSnapshot } from '../goals/goal.types';
import { composeBuildInput, type BuildInputSource } from './build-input';

const resultId = 'res_42';
const content: ResultRevisionInput = {
  resultId, revision: 1, mode: 'article', workflowExecution: resultId, executedAt: '2026-11-21T10:00:00Z', title: 'T', lead: null,
  body: 'Body.', sourceLang: 'en', locales: { de: { title: 'D', lead: null, body: 'Text.' } }, steps: {}, articles: [], clusters: [],
  sections: [], image: null, aiModel: 'm', tokensUsed: 1, cost: 0,
};
const goal: GoalSnapshot = {
  goalId: 'g', version: 1, deleted: false, name: 'Goal', sendImmediately: true, secondLanguageEnabled: false,
  secondLanguage: 'de', publishPolicy: 'publish', fieldDefaults: { desk: 'city', section: 'news' },
};
const contract: ContractSnapshot = {
  goalId: 'g', version: 1, origin: 'receiver', sectionTypes: ['faq'], blockTypes: ['paragraph'],
  fields: [{ key: 'desk', label: 'Desk', type: 'text', required: true, multiple: false }],
};

function source(patch: Partial<BuildInputSource> = {}): BuildInputSource {
  return { content, revision: 1, textOnlyChange: false, isFirstDelivery: true, goal, contract: null, fieldValues: {}, ...patch };
}

describe('composeBuildInput', () => {
  it('carries the goal settings the payload needs and the contract without its fields', () => {
    const input = composeBuildInput(source({ contract }));
    expect(input.goal).toEqual({ name: 'Goal', secondLanguageEnabled: false, secondLanguage: 'de', publishPolicy: 'publish' });
    expect(input.contract).toEqual({ origin: 'receiver', sectionTypes: ['faq'], blockTypes: ['paragraph'] });
  });

  it('sends fields only when the receiver reported some: per-result values over the goal defaults, reported keys only', () => {
    expect(composeBuildInput(source()).receiverFields).toEqual({ reportedFields: null, values: {} });
    expect(composeBuildInput(source({ contract: { ...contract, fields: [] } })).receiverFields.reportedFields).toBeNull();
    const input = composeBuildInput(source({ contract, fieldValues: { desk: 'harbour' } }));
    expect(input.receiverFields).toEqual({ reportedFields: contract.fields, values: { desk: 'harbour' } });
    expect(buildPayload(input).payload.fields).toEqual({ desk: 'harbour' });
  });

  it('builds the first delivery as workflow.action', () => {
    const { payload } = buildPayload(composeBuildInput(source()));
    expect(payload).toMatchObject({ event: 'workflow.action', workflow_execution: resultId, revision: 1 });
  });

  it('gives a first delivery at a later revision the result id as execution (earlier revisions were never sent)', () => {
    const later = { ...content, revision: 3, workflowExecution: 'exec_3', parentExecution: 'exec_2' };
    const { payload } = buildPayload(composeBuildInput(source({ content: later, revision: 3 })));
    expect(payload).toMatchObject({ event: 'workflow.action', workflow_execution: resultId, revision: 3 });
  });

  it('sends a later revision as cluster.updated with the parent execution and the new articles', () => {
    const v2 = { ...content, revision: 2, workflowExecution: 'exec_2', parentExecution: 'exec_1', newArticles: ['a1'] };
    const { payload } = buildPayload(composeBuildInput(source({ content: v2, revision: 2, isFirstDelivery: false })));
    expect(payload).toMatchObject({ event: 'cluster.updated', workflow_execution: 'exec_2', parent_execution: 'exec_1', new_articles: ['a1'] });
  });

  it('sends a text-only change of a result with no previous version with parent_execution null and no new articles', () => {
    const edited = { ...content, revision: 2, newArticles: ['stray'] };
    const { payload } = buildPayload(composeBuildInput(source({ content: edited, revision: 2, isFirstDelivery: false, textOnlyChange: true })));
    expect(payload).toMatchObject({ event: 'cluster.updated', parent_execution: null, new_articles: [] });
  });

  it('uses the revision it is given (a 409 re-send), not the one in the content', () => {
    expect(buildPayload(composeBuildInput(source({ revision: 7, isFirstDelivery: false }))).payload.revision).toBe(7);
  });

  it('sends the second language only when the switch is on', () => {
    expect(Object.keys(buildPayload(composeBuildInput(source())).payload.locales ?? {})).toEqual(['en']);
    const on = { ...goal, secondLanguageEnabled: true };
    expect(Object.keys(buildPayload(composeBuildInput(source({ goal: on }))).payload.locales ?? {})).toEqual(['de', 'en']);
  });
});
