import { checkRevisionContent } from './revision-content';

const valid = {
  resultId: 'res_1', revision: 1, mode: 'cluster', workflowExecution: 'res_1', executedAt: '2026-11-21T10:00:00Z', title: null,
  lead: null, body: null, sourceLang: 'en', locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null,
  aiModel: 'm', tokensUsed: 0, cost: 0,
};

describe('checkRevisionContent', () => {
  it('accepts the outline of a ResultRevisionInput', () => {
    expect(checkRevisionContent(valid, 'res_1')).toEqual({ ok: true, content: valid });
  });

  it('names every key of the wrong type', () => {
    expect(checkRevisionContent({ ...valid, mode: 'poem', articles: {} }, 'res_1')).toEqual({
      ok: false, problem: 'content.mode must be one of article, cluster; content.articles must be an array',
    });
  });

  it('refuses a locale that brings its own bodyHtml: body_html is rendered from the body, never taken from an event', () => {
    const locales = { en: { title: null, lead: null, body: 'x', bodyHtml: '<script>alert(1)</script>' }, de: { title: null, lead: null, body: 'y' } };
    expect(checkRevisionContent({ ...valid, locales }, 'res_1')).toEqual({
      ok: false, problem: 'content.locales.en.bodyHtml is not taken from an event (body_html is rendered from the body)',
    });
  });

  it('refuses content of another result', () => {
    expect(checkRevisionContent(valid, 'res_2')).toEqual({ ok: false, problem: 'content.resultId res_1 is not res_2' });
  });

  it('refuses something that is not an object', () => {
    expect(checkRevisionContent([valid], 'res_1')).toEqual({ ok: false, problem: 'content is not an object' });
  });
});
