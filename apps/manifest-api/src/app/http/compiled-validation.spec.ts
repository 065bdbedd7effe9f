import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { compileClassCheck } from '@owd/events';
import { ResultContentDto, ReviseContentDto } from '../results/dto/result-content.dto';
import { ProblemException } from './problem';
import { createValidationPipe } from './validation';

const compiled = createValidationPipe([ResultContentDto, ReviseContentDto]);
const classValidatorOnly = createValidationPipe();

const step = { text: 'draft', model: 'm', tokens: 900, cost: 0.002 };
const article = { id: 'art_1', title: 'A', url: 'https://news.example/a', source: 'Daily', publishedAt: '2026-11-21T10:00:00+01:00', lang: 'en' };
const blocks = [
  { type: 'paragraph', text: 'p' },
  { type: 'heading', level: 2, text: 'h' },
  { type: 'list', ordered: false, items: ['a', 'b'] },
  { type: 'quote', text: 'q', cite: 'c' },
  { type: 'table', header: ['k', 'v'], rows: [['a', '1'], ['b', '2']] },
  { type: 'image', url: 'http://localhost:8080/i.png', alt: 'i', attribution: 'me' },
  { type: 'embed', url: 'https://video.example/v', provider: 'v' },
];
/** A content with every field the DTO knows. */
const full = {
  mode: 'article', executedAt: '2026-11-21T10:00:00+02:00', title: 'T', lead: 'L', body: 'B', sourceLang: 'pt-BR',
  locales: { en: { title: 'T', lead: null, body: 'B', slug: 's', seoDescription: 'd' } }, steps: { draft: step, 'polish.v2': step },
  articles: [article], clusters: [{ id: 'c1', description: 'd', keywords: ['k'], version: 1 }],
  sections: [{ key: 'main', type: 'content', blocks }], image: { url: 'https://img.example/i.jpg', attribution: 'a' },
  aiModel: 'gpt', tokensUsed: 10, cost: 0.5,
};
const minimal = { mode: 'cluster', aiModel: 'gpt', tokensUsed: 0, cost: 0 };

type Body = Record<string, unknown>;
/** A copy as the body parser makes it (structuredClone's objects come from another realm under jest). */
const parsed = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const edit = (change: (body: Body) => void): Body => {
  const body = parsed(full) as Body;
  change(body);
  return body;
};
const section = (body: Body) => (body['sections'] as { blocks: unknown }[])[0];

/** Bodies that pass, and bodies that fail for one reason each, at every level and through every kind of rule. */
const BODIES: [string, unknown][] = [
  ['the full content', full],
  ['the minimal content', minimal],
  ['nulls where they are allowed', { ...minimal, title: null, lead: null, body: null, image: null }],
  ['a URL on a host without a top-level domain', edit((b) => { (b['articles'] as Body[])[0]['url'] = 'http://intranet:8080/x'; })],
  ['an unknown mode', { ...minimal, mode: 'digest' }],
  ['a missing aiModel', { mode: 'article', tokensUsed: 1, cost: 1 }],
  ['fractional tokens', { ...minimal, tokensUsed: 1.5 }],
  ['negative tokens', { ...minimal, tokensUsed: -1 }],
  ['infinite tokens (JSON 1e999)', { ...minimal, tokensUsed: Infinity }],
  ['an infinite cost', { ...minimal, cost: Infinity }],
  ['a cost as a string', { ...minimal, cost: '1' }],
  ['executedAt null (optional, never null)', { ...minimal, executedAt: null }],
  ['executedAt without an offset', { ...minimal, executedAt: '2026-11-21T10:00:00' }],
  ['sourceLang null', { ...minimal, sourceLang: null }],
  ['a sourceLang that is no language code', { ...minimal, sourceLang: 'EN' }],
  ['a title that is a number', { ...minimal, title: 5 }],
  ['an unknown key', { ...minimal, extra: 1 }],
  ['a locale key that is no language code', edit((b) => { b['locales'] = { 'EN!': { body: 'x' } }; })],
  ['a locale without its body', edit((b) => { b['locales'] = { en: { title: null, lead: null } }; })],
  ['a locale with an unknown key', edit((b) => { b['locales'] = { en: { title: null, lead: null, body: 'x', extra: 1 } }; })],
  ['a locale that is null', edit((b) => { b['locales'] = { en: null }; })],
  ['locales as an array', edit((b) => { b['locales'] = [{ title: null, lead: null, body: 'x' }]; })],
  ['locales null', { ...minimal, locales: null }],
  ['a step name with a space', edit((b) => { b['steps'] = { 'bad name': step }; })],
  ['a step with fractional tokens', edit((b) => { b['steps'] = { draft: { ...step, tokens: 0.5 } }; })],
  ['articles that are no array', { ...minimal, articles: article }],
  ['an article with an empty id', edit((b) => { b['articles'] = [{ ...article, id: '' }]; })],
  ['an article URL with another scheme', edit((b) => { b['articles'] = [{ ...article, url: 'ftp://news.example/a' }]; })],
  ['an article URL without a scheme', edit((b) => { b['articles'] = [{ ...article, url: 'news.example/a' }]; })],
  ['an article with an unknown key', edit((b) => { b['articles'] = [{ ...article, score: 1 }]; })],
  ['an article that is a string', edit((b) => { b['articles'] = ['art_1']; })],
  ['an article that is null', edit((b) => { b['articles'] = [null]; })],
  ['a cluster at version 0', edit((b) => { b['clusters'] = [{ id: 'c', description: 'd', keywords: [], version: 0 }]; })],
  ['a cluster keyword that is a number', edit((b) => { b['clusters'] = [{ id: 'c', description: 'd', keywords: ['a', 2], version: 1 }]; })],
  ['a block of an unknown type', edit((b) => { section(b).blocks = [{ type: 'video', url: 'https://v.example' }]; })],
  ['a block without a type', edit((b) => { section(b).blocks = [{ text: 'p' }]; })],
  ['a paragraph without its text', edit((b) => { section(b).blocks = [{ type: 'paragraph' }]; })],
  ['a paragraph with a key of another block', edit((b) => { section(b).blocks = [{ type: 'paragraph', text: 'p', level: 1 }]; })],
  ['a heading of level 7', edit((b) => { section(b).blocks = [{ type: 'heading', level: 7, text: 'h' }]; })],
  ['a table row that is no array', edit((b) => { section(b).blocks = [{ type: 'table', header: [], rows: [['a'], 'b'] }]; })],
  ['a list item that is a number', edit((b) => { section(b).blocks = [{ type: 'list', ordered: true, items: [1] }]; })],
  ['an image block with a javascript: URL', edit((b) => { section(b).blocks = [{ type: 'image', url: 'javascript:alert(1)', alt: 'x' }]; })],
  ['a block that is a string', edit((b) => { section(b).blocks = ['paragraph']; })],
  ['blocks that are no array', edit((b) => { section(b).blocks = { type: 'paragraph', text: 'p' }; })],
  ['a section with an empty key', edit((b) => { (b['sections'] as Body[])[0]['key'] = ''; })],
  ['an image without attribution', { ...minimal, image: { url: 'https://img.example/i.jpg' } }],
  ['an image given as an array', { ...minimal, image: [{ url: 'https://img.example/i.jpg', attribution: 'a' }] }],
  ['an image that is a string', { ...minimal, image: 'https://img.example/i.jpg' }],
];

const REVISIONS: [string, unknown][] = [
  ['new articles', { ...full, mode: 'cluster', newArticles: ['art_1'] }],
  ['new articles that are no array', { ...full, newArticles: 'art_1' }],
  ['a new article that is a number', { ...full, newArticles: [1] }],
  ['newArticles null', { ...full, newArticles: null }],
];

/** JSON has no Infinity, but JSON.parse reads 1e999 as one: copied as parsed, with such numbers kept. */
const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v === Infinity ? '__inf__' : v)), (_k, v: unknown) => (v === '__inf__' ? Infinity : v));

/** The full content with one value (at any depth) replaced by a value of another kind, each with its path. */
function* oneValueChanges(content: object): Generator<[string, Body]> {
  const others = (value: unknown) => [null, [], {}, [value], 'x', '', 1, 0, -1, 1.5, true, [null], [[]], { a: 1 }];
  function* walk(value: unknown, path: (string | number)[]): Generator<(string | number)[]> {
    if (path.length > 0) yield path;
    if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) yield* walk(inner, [...path, Array.isArray(value) ? Number(key) : key]);
    }
  }
  type Node = Record<string | number, unknown>;
  const at = (node: unknown, key: string | number) => (node as Node)[key];
  for (const path of walk(content, [])) {
    for (const other of others(path.reduce(at, content))) {
      const body = parsed(content) as Body;
      (path.slice(0, -1).reduce(at, body) as Node)[path[path.length - 1]] = parsed(other);
      yield [`${path.join('.')} = ${JSON.stringify(other)}`, body];
    }
  }
}

type Outcome = { accepted: unknown } | { refused: unknown };

async function outcome(pipe: typeof compiled, body: unknown, metatype: ArgumentMetadata['metatype']): Promise<Outcome> {
  try {
    return { accepted: JSON.parse(JSON.stringify(await pipe.transform(copy(body), { type: 'body', metatype }))) };
  } catch (err) {
    if (!(err instanceof ProblemException)) throw err;
    return { refused: err.toProblem() };
  }
}

describe('compiled checks of result contents', () => {
  it.each(BODIES)('answer %s as class-validator does', async (_name, body) => {
    expect(await outcome(compiled, body, ResultContentDto)).toEqual(await outcome(classValidatorOnly, body, ResultContentDto));
  });

  it.each(REVISIONS)('answer a revision with %s as class-validator does', async (_name, body) => {
    expect(await outcome(compiled, body, ReviseContentDto)).toEqual(await outcome(classValidatorOnly, body, ReviseContentDto));
  });

  it('refuse a locale that carries bodyHtml: body_html is rendered and sanitized by the payload library, never taken from a customer', async () => {
    const body = edit((b) => { b['locales'] = { en: { title: null, lead: null, body: 'x', bodyHtml: '<script>alert(1)</script>' } }; });
    for (const pipe of [compiled, classValidatorOnly]) {
      expect(await outcome(pipe, body, ResultContentDto)).toEqual({ refused: expect.objectContaining({
        status: 400, errors: [{ field: 'locales', message: 'en: property bodyHtml should not exist' }],
      }) });
    }
  });

  it('pass a valid content without class-transformer: its nested parts stay as parsed, the content is typed', async () => {
    const byRules = (await compiled.transform(parsed(full), { type: 'body', metatype: ResultContentDto })) as ResultContentDto;
    const byClassValidator = (await classValidatorOnly.transform(parsed(full), { type: 'body', metatype: ResultContentDto })) as ResultContentDto;
    expect(byRules).toBeInstanceOf(ResultContentDto);
    expect(byRules.articles?.[0]?.constructor).toBe(Object);
    expect(byClassValidator.articles?.[0]?.constructor).not.toBe(Object);
  });

  it('answer as class-validator does to every one-value change of the full content, and pass by the compiled check exactly what it passes', async () => {
    const check = compileClassCheck(ResultContentDto, true);
    const differing: string[] = [];
    const judgedOtherwise: string[] = [];
    let compared = 0;
    for (const [path, body] of oneValueChanges(full)) {
      const mine = await outcome(compiled, body, ResultContentDto);
      const theirs = await outcome(classValidatorOnly, body, ResultContentDto).catch((err: Error) => err);
      if (theirs instanceof TypeError) continue; // a null block: class-transformer throws (next test)
      compared += 1;
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) differing.push(path);
      // Both ways: what class-validator accepts takes the fast path (and it accepts nothing the rules refuse).
      if (check(copy(body)) !== 'accepted' in theirs) judgedOtherwise.push(path);
    }
    expect(differing).toEqual([]);
    expect(judgedOtherwise).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  }, 120_000); // ~1,500 bodies through class-validator: seconds on a slow host

  it('answer a null block with a 400 naming it, where class-transformer alone throws (a 500)', async () => {
    const body = edit((b) => { section(b).blocks = [{ type: 'paragraph', text: 'p' }, null]; });
    await expect(classValidatorOnly.transform(copy(body), { type: 'body', metatype: ResultContentDto })).rejects.toBeInstanceOf(TypeError);
    expect(await outcome(compiled, body, ResultContentDto)).toMatchObject({
      refused: { status: 400, errors: [{ field: 'sections[0].blocks[1]', message: 'must be object' }] },
    });
  });

  it('name the null block of its own body while other bodies are checked meanwhile', async () => {
    const withNull = edit((b) => { section(b).blocks = [null]; });
    const first = compiled.transform(copy(withNull), { type: 'body', metatype: ResultContentDto });
    // Checked while the first awaits class-transformer's failure: the check's findings are now this body's.
    await compiled.transform(copy({ ...minimal, tokensUsed: -1 }), { type: 'body', metatype: ResultContentDto }).catch(() => undefined);
    const refused = await first.catch((err: ProblemException) => err.toProblem());
    expect(refused).toMatchObject({ status: 400, errors: [{ field: 'sections[0].blocks[0]' }] });
  });

  it('refuse an image given as an array, which @ValidateNested alone accepted', async () => {
    const body = { ...minimal, image: [{ url: 'https://img.example/i.jpg', attribution: 'a' }] };
    expect(await outcome(classValidatorOnly, body, ResultContentDto)).toMatchObject({ refused: { errors: [{ field: 'image' }] } });
  });

  it('fail a bad content over to class-validator, whose messages name the field', async () => {
    const answer = await outcome(compiled, { ...minimal, tokensUsed: -1 }, ResultContentDto);
    expect(answer).toMatchObject({ refused: { errors: [{ field: 'tokensUsed', message: expect.stringContaining('tokensUsed') }] } });
  });
});

describe('what the handler of a compiled class is given', () => {
  /** Plain JSON data: objects of Object's prototype (not class instances), arrays and primitives, at every depth. */
  const isPlain = (value: unknown): boolean => (Array.isArray(value) ? value.every(isPlain)
    : value === null || typeof value !== 'object' || (Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isPlain)));
  const metadata: ArgumentMetadata = { type: 'body', metatype: ResultContentDto };

  it('the body as parsed, typed by its class, when the compiled check takes it', async () => {
    const body = parsed(full) as Body;
    const given = (await compiled.transform(body, metadata)) as Body;
    expect(given).toBeInstanceOf(ResultContentDto);
    expect(given['sections']).toBe(body['sections']);
  });

  it('plain JSON data too where class-validator had the last word (class-transformer built nested instances)', async () => {
    const pipe = createValidationPipe([ResultContentDto]);
    // The compiled check made to refuse a valid body, as it would where the two judged a body differently.
    const refuseAll = Object.assign(() => false, { errors: [] });
    (pipe as unknown as { checks: Map<unknown, unknown> }).checks.set(ResultContentDto, refuseAll);
    const given = (await pipe.transform(parsed(full), metadata)) as Body;
    expect(given).toBeInstanceOf(ResultContentDto);
    expect(Object.values(given).every(isPlain)).toBe(true);
    expect({ ...given }).toEqual(parsed(full));
  });
});
