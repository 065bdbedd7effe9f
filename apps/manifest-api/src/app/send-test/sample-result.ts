import type { BuildPayloadInput } from '@owd/payload';

/** The sample event of a Send test: a small, complete article-mode payload v5 for the goal. */
export function sampleInput(resultId: string, goal: { name: string; sourceLang: string }, now: Date): BuildPayloadInput {
  return {
    revision: {
      resultId, revision: 1, mode: 'article', workflowExecution: resultId, parentExecution: null,
      executedAt: now.toISOString(), title: 'Send test: sample article', lead: 'A sample event sent by Send test.',
      body: '## Sample\n\nThis is a **test delivery**. Real deliveries carry the same shape.\n\n> Receivers ignore unknown keys.',
      sourceLang: goal.sourceLang, locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null,
      aiModel: 'sample', tokensUsed: 0, cost: 0,
    },
    goal: { name: goal.name, secondLanguageEnabled: false, secondLanguage: null, publishPolicy: null },
    contract: null,
    receiverFields: { reportedFields: null, values: {} },
    event: { isFirstDelivery: true },
  };
}
