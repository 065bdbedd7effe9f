import { SecondLanguageMissingError } from '../errors/second-language-missing.error';
import { GoalSettingsInput } from '../input/goal-settings.input';
import { LocaleContentInput, ResultRevisionInput } from '../input/result-revision.input';
import { renderMarkdown } from '../render/markdown.renderer';
import { deriveSeoDescription } from '../render/seo-description';
import { deriveSlug } from '../render/slug';
import { LocaleEntry } from '../types/payload.types';
import { ownEntry } from './own-entry';
import { mapSorted } from './sorted-record';

/** `locales`: the source language always, the second language only when the goal's switch is on. */
export function buildLocales(revision: ResultRevisionInput, goal: GoalSettingsInput, body: string): Record<string, LocaleEntry> {
  const contents: Record<string, LocaleContentInput> = {
    [revision.sourceLang]: ownEntry(revision.locales, revision.sourceLang) ?? {
      title: revision.title,
      lead: revision.lead,
      body,
    },
  };
  if (goal.secondLanguageEnabled) {
    const lang = goal.secondLanguage;
    const content = lang === null ? undefined : ownEntry(revision.locales, lang);
    // Sending without the promised language would publish a half result; the caller parks it instead.
    if (lang === null || content === undefined) throw new SecondLanguageMissingError(lang);
    contents[lang] = content;
  }
  return mapSorted(contents, (content) => buildLocaleEntry(content, revision.resultId));
}

export function buildLocaleEntry(content: LocaleContentInput, resultId: string): LocaleEntry {
  const title = content.title ?? '';
  const lead = content.lead ?? '';
  // Rendered (and the renderers loaded) only for what the content does not carry; renderMarkdown caches its renderings.
  const render = () => renderMarkdown(content.body);
  return {
    title,
    slug: content.slug ?? (deriveSlug(title) || deriveSlug(resultId)),
    lead,
    body: content.body,
    seo_description: content.seoDescription
      ?? deriveSeoDescription(lead.trim() !== '' ? lead : firstNonBlank(render().firstParagraph, title)),
    body_html: content.bodyHtml ?? render().html,
  };
}

function firstNonBlank(...texts: string[]): string {
  return texts.find((text) => text.trim() !== '') ?? '';
}
