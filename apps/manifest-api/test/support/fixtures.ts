/** A small article result as the upstream generator would hand it over (camelCase API body). */
export function articleContent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mode: 'article',
    executedAt: '2026-11-21T10:00:00+00:00',
    title: 'Grain prices fall for a third week',
    lead: 'Harvest estimates rose again.',
    body: 'Grain prices fell for a third week.\n\n## What traders watch\n\n- Export quotas',
    locales: { uk: { title: 'Ціни на зерно падають', lead: null, body: 'Ціни на зерно знижуються.' } },
    steps: { draft: { text: 'Grain prices fell.', model: 'gpt-4.1', tokens: 1200, cost: 0.006 } },
    articles: [{ id: 'art_7001', title: 'Harvest outlook raised', url: 'https://agri.example.com/outlook', source: 'Agri Daily', publishedAt: '2026-11-20T23:30:00-05:00', lang: 'en' }],
    clusters: [{ id: 'clu_88', description: 'Grain market, November harvest', keywords: ['grain'], version: 1 }],
    sections: [{ key: 'main', type: 'content', blocks: [
      { type: 'paragraph', text: 'Grain prices fell for a third week.' },
      { type: 'heading', level: 2, text: 'What traders watch' },
      { type: 'table', header: ['Crop', 'Change'], rows: [['Wheat', '-2.1 %']] },
    ] }],
    image: null,
    aiModel: 'gpt-4.1',
    tokensUsed: 1840,
    cost: 0.0068,
    ...overrides,
  };
}

export const NEW_ARTICLE = {
  id: 'art_7002', title: 'Retailers warn of shortages', url: 'https://retail.example.net/shortages', source: 'Retail Today',
  publishedAt: '2026-11-21T13:40:00Z', lang: 'en',
};
