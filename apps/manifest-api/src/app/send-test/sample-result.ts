import type { BuildPayloadInput, LocaleContentInput } from '@owd/payload';

/**
 * The sample article's content, with the slug and HTML the payload library would derive from it written out
 * (sample-result.spec.ts holds them to the library's own derivation): so a Send test does not load the markdown
 * renderer, the HTML sanitizer and the transliteration tables into the API, ~6 MB of heap kept for good, to render
 * a text that never changes (docs/performance.md, eighteenth round).
 */
export const SAMPLE_CONTENT = {
  title: 'Send test: sample article',
  lead: 'A sample event sent by Send test.',
  body: '## Sample\n\nThis is a **test delivery**. Real deliveries carry the same shape.\n\n> Receivers ignore unknown keys.',
  slug: 'send-test-sample-article',
  bodyHtml: '<h2>Sample</h2>\n<p>This is a <strong>test delivery</strong>. Real deliveries carry the same shape.</p>\n'
    + '<blockquote>\n<p>Receivers ignore unknown keys.</p>\n</blockquote>\n',
} as const satisfies LocaleContentInput;

/** The sample event of a Send test: a small, complete article-mode payload v5 for the goal. */
export function sampleInput(resultId: string, goal: { name: string; sourceLang: string }, now: Date): BuildPayloadInput {
  const { title, lead, body } = SAMPLE_CONTENT;
  return {
    revision: {
      resultId, revision: 1, mode: 'article', workflowExecution: resultId, parentExecution: null,
      executedAt: now.toISOString(), title, lead, body,
      sourceLang: goal.sourceLang, locales: { [goal.sourceLang]: { ...SAMPLE_CONTENT } }, steps: {}, articles: [], clusters: [],
      sections: [], image: null, aiModel: 'sample', tokensUsed: 0, cost: 0,
    },
    goal: { name: goal.name, secondLanguageEnabled: false, secondLanguage: null, publishPolicy: null },
    contract: null,
    receiverFields: { reportedFields: null, values: {} },
    event: { isFirstDelivery: true },
  };
}
