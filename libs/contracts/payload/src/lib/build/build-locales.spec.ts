import { SecondLanguageMissingError } from '../errors/second-language-missing.error';
import { LocaleContentInput } from '../input/result-revision.input';
import { articleInput } from '../testing/input.factory';
import { buildPayload } from './build-payload';

const en: LocaleContentInput = { title: 'Bridge opens', lead: 'It opens in spring.', body: 'Text in English.' };

const localesOf = (input: ReturnType<typeof articleInput>) => buildPayload(input).payload.locales ?? {};

describe('locales', () => {
  it('always carries the source language, built from title, lead and body when the input has no entry for it', () => {
    const locales = localesOf(articleInput());
    expect(Object.keys(locales)).toEqual(['de']);
    expect(locales['de']?.title).toBe('Über die Brücke: Fünf Gründe für die neue Radroute');
    expect(locales['de']?.body).toContain('**4,2 Kilometern**');
  });

  it('adds the second language when the goal switch is on', () => {
    const input = articleInput({
      revision: { locales: { en } },
      goal: { secondLanguageEnabled: true, secondLanguage: 'en' },
    });
    const locales = localesOf(input);
    expect(Object.keys(locales)).toEqual(['de', 'en']);
    expect(locales['en']?.title).toBe('Bridge opens');
  });

  it('leaves the second language out when the switch is off, even if the content exists', () => {
    const input = articleInput({ revision: { locales: { en } }, goal: { secondLanguageEnabled: false, secondLanguage: 'en' } });
    expect(Object.keys(localesOf(input))).toEqual(['de']);
  });

  it('refuses to send when the switch is on but the second-language content is missing', () => {
    const input = articleInput({ goal: { secondLanguageEnabled: true, secondLanguage: 'en' } });
    expect(() => buildPayload(input)).toThrow(SecondLanguageMissingError);
    expect(() => buildPayload(input)).toThrow(expect.objectContaining({ code: 'second_language_missing', lang: 'en' }));
  });

  it('refuses to send when the switch is on but no second language is named', () => {
    const input = articleInput({ goal: { secondLanguageEnabled: true, secondLanguage: null } });
    expect(() => buildPayload(input)).toThrow(expect.objectContaining({ lang: null }));
  });

  it('does not take inherited properties for language content', () => {
    const input = articleInput({ goal: { secondLanguageEnabled: true, secondLanguage: 'constructor' } });
    expect(() => buildPayload(input)).toThrow(SecondLanguageMissingError);
  });

  it('sends one entry when the second language equals the source language', () => {
    const input = articleInput({ goal: { secondLanguageEnabled: true, secondLanguage: 'de' }, revision: { locales: { de: en } } });
    expect(Object.keys(localesOf(input))).toEqual(['de']);
  });

  it('orders language keys independently of input key order', () => {
    const fr: LocaleContentInput = { ...en, title: 'Pont' };
    const a = articleInput({ revision: { sourceLang: 'fr', locales: { fr, ab: en } }, goal: { secondLanguageEnabled: true, secondLanguage: 'ab' } });
    const b = articleInput({ revision: { sourceLang: 'fr', locales: { ab: en, fr } }, goal: { secondLanguageEnabled: true, secondLanguage: 'ab' } });
    expect(Object.keys(localesOf(a))).toEqual(['ab', 'fr']);
    expect(buildPayload(a).body.equals(buildPayload(b).body)).toBe(true);
  });

  it('keeps slug and seo_description the input carries', () => {
    const input = articleInput({ revision: { locales: { de: { ...en, slug: 'given-slug', seoDescription: 'Given.' } } } });
    expect(localesOf(input)['de']).toMatchObject({ slug: 'given-slug', seo_description: 'Given.' });
  });

  it('derives slug from the title and seo_description from the lead', () => {
    expect(localesOf(articleInput())['de']).toMatchObject({
      slug: 'uber-die-brucke-funf-grunde-fur-die-neue-radroute',
      seo_description: 'Die Stadt öffnet im Frühjahr eine durchgehende Radroute über den Fluss. Was Pendler erwartet.',
    });
  });

  it('derives seo_description from the first paragraph when there is no lead, and writes null strings as ""', () => {
    const input = articleInput({ revision: { lead: null } });
    expect(localesOf(input)['de']).toMatchObject({
      lead: '',
      seo_description: 'Die neue Route verbindet das Westufer mit der Altstadt auf 4,2 Kilometern.',
    });
  });

  it('falls back to a slug from the result id when the title has no letters or digits', () => {
    const input = articleInput({ revision: { title: '!!!' } });
    expect(localesOf(input)['de']?.slug).toBe('res-01jd7q4m2k9v');
  });

  it('renders body_html from the markdown body', () => {
    const html = localesOf(articleInput())['de']?.body_html ?? '';
    expect(html).toContain('<h2>Was sich ändert</h2>');
    expect(html).toContain('<table>');
    expect(html).toContain('<blockquote>');
  });

  it('takes body_html the input carries as it is, rendering nothing', () => {
    const input = articleInput({ revision: { locales: { de: { ...en, body: '*not rendered*', bodyHtml: '<p>given</p>\n' } } } });
    expect(localesOf(input)['de']).toMatchObject({ body: '*not rendered*', body_html: '<p>given</p>\n', seo_description: 'It opens in spring.' });
  });
});
