import type { ResultRevisionInput } from '@owd/payload';
import type { FieldError } from '../http/problem';
import type { ResultContentDto } from './dto/result-content.dto';

/** A result's content with every default filled in: ResultRevisionInput without the ids the API assigns. */
export type StoredContent = Omit<ResultRevisionInput, 'resultId' | 'revision' | 'workflowExecution' | 'parentExecution' | 'newArticles'>;

/** Ids and links of one revision (§6). */
export interface RevisionIds {
  resultId: string;
  revision: number;
  workflowExecution: string;
  parentExecution: string | null;
  newArticles: string[];
}

/**
 * The content as stored, every absent key given its default. `p` is plain JSON data, as the validation pipe hands the
 * compiled classes' bodies over (createValidationPipe), not copied again: the content shares its nested values with
 * the parsed request body, which nothing changes after validation.
 */
export function normalizeContent(p: ResultContentDto, defaults: { sourceLang: string; executedAt: string }): StoredContent {
  return {
    mode: p.mode,
    executedAt: p.executedAt ?? defaults.executedAt,
    title: p.title ?? null,
    lead: p.lead ?? null,
    body: p.body ?? null,
    sourceLang: p.sourceLang ?? defaults.sourceLang,
    locales: p.locales ?? {},
    steps: p.steps ?? {},
    articles: p.articles ?? [],
    clusters: p.clusters ?? [],
    sections: (p.sections ?? []) as StoredContent['sections'],
    image: p.image ?? null,
    aiModel: p.aiModel,
    tokensUsed: p.tokensUsed,
    cost: p.cost,
  };
}

/** Rules across fields that the DTO cannot express (422). */
export function contentRuleErrors(content: StoredContent, newArticles: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  if (content.mode === 'article' && content.body === null) {
    errors.push({ field: 'body', message: 'is required in article mode (the markdown of the source language)' });
  }
  const known = new Set(content.articles.map((a) => a.id));
  newArticles.forEach((id, i) => {
    if (!known.has(id)) errors.push({ field: `newArticles[${i}]`, message: `${id} is not among articles` });
  });
  return errors;
}

/** The payload builder's input for one revision: what result.revised carries as `content`. */
export function revisionInput(ids: RevisionIds, content: StoredContent): ResultRevisionInput {
  return { ...ids, ...content };
}
