import { buildPayload } from '../build/build-payload';
import { GOLDEN_FIXTURES } from '../fixtures/golden-fixtures';

type Json = Record<string, unknown>;

function fixtureBody(file: string): Json {
  const fixture = GOLDEN_FIXTURES.find((candidate) => candidate.file === file);
  if (fixture === undefined) throw new Error(`no fixture ${file}`);
  return JSON.parse(buildPayload(fixture.input).body.toString('utf8')) as Json;
}

/** Payloads that break one presence or shape rule each; both the JSON Schema and the DTOs must reject them. */
export function invalidPayloads(): Array<[string, Json]> {
  const article = (): Json => fixtureBody('article-two-languages.json');
  const cluster = (): Json => fixtureBody('cluster.json');
  const updated = (): Json => fixtureBody('cluster-updated.json');
  const sections = (body: Json): Json[] => body['sections'] as Json[];
  return [
    ['an unknown top-level key', { ...article(), extra: 1 }],
    ['payload_version 4', { ...article(), payload_version: 4 }],
    ['a missing title key', without(article(), 'title')],
    ['an empty sections array', { ...article(), sections: [] }],
    ['sections set to null', { ...article(), sections: null }],
    ['an empty tags array', { ...cluster(), tags: [] }],
    ['an empty fields object', { ...article(), fields: {} }],
    ['locales in cluster mode', { ...cluster(), locales: article()['locales'] }],
    ['a step in cluster mode', { ...cluster(), steps: { draft: { text: '', model: 'm', tokens: 1, cost: 0 } } }],
    ['llm_response in cluster mode', { ...cluster(), llm_response: '# text' }],
    ['article mode without locales', without(article(), 'locales')],
    ['parent_execution on workflow.action', { ...article(), parent_execution: null }],
    ['cluster.updated without new_articles', without(updated(), 'new_articles')],
    ['a timestamp without offset', { ...article(), executed_at: '2026-11-21T10:00:00' }],
    ['a Z timestamp (we always write +00:00)', { ...article(), published_at: '2026-11-21T10:00:00.000Z' }],
    ['an unknown publish_mode', { ...article(), publish_mode: 'later' }],
    ['an unknown block type', withFirstBlock(article(), { type: 'video', url: 'https://x.example' })],
    ['a block with an extra key', withFirstBlock(article(), { type: 'paragraph', text: 'x', html: '<b>x</b>' })],
    ['a heading of level 7', withFirstBlock(article(), { type: 'heading', level: 7, text: 'x' })],
    ['fallback_of on a non-content section', { ...article(), sections: [{ ...sections(article())[1], type: 'timeline' }] }],
    ['a section without blocks', { ...article(), sections: [{ key: 'a', type: 'content', blocks: [] }] }],
    ['a seo_description over 160 chars', withLocale(article(), 'en', { seo_description: 'x'.repeat(161) })],
    ['a fields value of the wrong shape', { ...article(), fields: { category: 3 } }],
    ['a fields key whose value nobody set (null)', { ...article(), fields: { category: 'markets', byline: null } }],
    ['a blank fields value', { ...article(), fields: { category: ' ' } }],
    ['an empty selection in fields', { ...article(), fields: { category: 'markets', region: [] } }],
    // An array where one object is due: @ValidateNested alone checks an array's members instead.
    ['an article given as an array', { ...cluster(), articles: [(cluster()['articles'] as Json[])] }],
    ['a section given as an array', { ...article(), sections: [sections(article())] }],
    ['a block given as an array', withFirstBlock(article(), [{ type: 'paragraph', text: 'x' }] as unknown as Json)],
    ['a null block', withFirstBlock(article(), null as unknown as Json)],
  ];
}

function without(body: Json, key: string): Json {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

function withFirstBlock(body: Json, block: Json): Json {
  const [first, ...rest] = body['sections'] as Json[];
  return { ...body, sections: [{ ...first, blocks: [block] }, ...rest] };
}

function withLocale(body: Json, lang: string, patch: Json): Json {
  const locales = body['locales'] as Record<string, Json>;
  return { ...body, locales: { ...locales, [lang]: { ...locales[lang], ...patch } } };
}
