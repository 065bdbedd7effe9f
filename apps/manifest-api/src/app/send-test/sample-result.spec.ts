import { buildPayload, deriveSlug, renderMarkdown } from '@owd/payload';
import { SAMPLE_CONTENT, sampleInput } from './sample-result';

describe('the Send test sample', () => {
  it('carries the slug and HTML the payload library derives from its title and body', () => {
    expect(SAMPLE_CONTENT.slug).toBe(deriveSlug(SAMPLE_CONTENT.title));
    expect(SAMPLE_CONTENT.bodyHtml).toBe(renderMarkdown(SAMPLE_CONTENT.body).html);
  });

  it('builds, in the goal\'s source language, the payload its content alone would build', () => {
    const now = new Date('2026-11-27T08:00:00Z');
    const input = sampleInput('test_1', { name: 'Blog', sourceLang: 'fr' }, now);
    const { title, lead, body } = SAMPLE_CONTENT;
    const derived = { ...input, revision: { ...input.revision, locales: { fr: { title, lead, body } } } };
    expect(buildPayload(input).body.toString('utf8')).toBe(buildPayload(derived).body.toString('utf8'));
    expect(Object.keys(buildPayload(input).payload.locales ?? {})).toEqual(['fr']);
  });
});
