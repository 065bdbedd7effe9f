import { contentRuleErrors, normalizeContent } from './result-content';
import type { ReviseContentDto } from './dto/result-content.dto';

const minimal = { mode: 'article', body: '# Hi', aiModel: 'm', tokensUsed: 1, cost: 0 } as ReviseContentDto;

describe('result content', () => {
  it('fills the defaults of absent keys', () => {
    expect(normalizeContent(minimal, { sourceLang: 'en', executedAt: '2026-01-01T00:00:00Z' })).toEqual({
      mode: 'article', executedAt: '2026-01-01T00:00:00Z', title: null, lead: null, body: '# Hi', sourceLang: 'en',
      locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null, aiModel: 'm', tokensUsed: 1, cost: 0,
    });
  });

  it('keeps the nested values it is given, not copies (the validated body is plain JSON data already)', () => {
    const articles = [{ id: 'art_1', title: 'A', url: 'https://news.example/a', source: 'S', publishedAt: '2026-01-01T00:00:00Z', lang: 'en' }];
    const locales = { de: { title: null, lead: null, body: 'Hallo' } };
    const content = normalizeContent({ ...minimal, articles, locales } as ReviseContentDto, { sourceLang: 'en', executedAt: 'x' });
    expect(content.articles).toBe(articles);
    expect(content.locales).toBe(locales);
  });

  it('needs a body in article mode and known ids in newArticles', () => {
    const content = normalizeContent({ ...minimal, body: null }, { sourceLang: 'en', executedAt: 'x' });
    expect(contentRuleErrors(content, ['art_1']).map((e) => e.field)).toEqual(['body', 'newArticles[0]']);
    expect(contentRuleErrors({ ...content, mode: 'cluster' }, [])).toEqual([]);
  });
});
