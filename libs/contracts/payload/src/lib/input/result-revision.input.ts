import { PayloadMode } from '../payload.constants';
import { BlockInput } from '../types/block.types';

/** Content of one language. Strings only, so it travels as plain JSON in events. */
export interface LocaleContentInput {
  title: string | null;
  lead: string | null;
  /** Markdown. */
  body: string;
  /** Used as is when given; otherwise derived from the title. */
  slug?: string;
  /** Used as is when given; otherwise derived from the lead or the first paragraph. */
  seoDescription?: string;
  /**
   * `body` as `renderMarkdown` renders it (sanitized HTML), when the caller has it already; otherwise rendered here.
   * Only for content of our own making (the API's Send test sample), never passed through from a customer's input.
   */
  bodyHtml?: string;
}

export interface StepInput {
  text: string;
  model: string;
  tokens: number;
  cost: number;
}

export interface ArticleInput {
  id: string;
  title: string;
  url: string;
  source: string;
  /** ISO 8601 with an offset; null when the source did not date it. */
  publishedAt: string | null;
  lang: string;
}

export interface ClusterInput {
  id: string;
  description: string;
  keywords: string[];
  version: number;
}

export interface SectionInput {
  key: string;
  type: string;
  blocks: BlockInput[];
}

export interface ImageInput {
  url: string;
  attribution: string;
}

/** One revision of a result, as recorded when it was created or changed. */
export interface ResultRevisionInput {
  resultId: string;
  /** Starts at 1, grows with every content change. */
  revision: number;
  mode: PayloadMode;
  /** Execution that produced this revision; must equal `resultId` in a first delivery. */
  workflowExecution: string;
  /** Execution of the previous version; null or absent when there is none (§6 rule 1). */
  parentExecution?: string | null;
  /** ISO 8601 with an offset: when the result was created. Source of `executed_at` and `published_at`. */
  executedAt: string;
  title: string | null;
  /** The editor's standfirst; never taken from the cluster description. */
  lead: string | null;
  /** Markdown of the source language (`llm_response`); required in article mode, ignored in cluster mode. */
  body: string | null;
  sourceLang: string;
  /**
   * Content per language code. The source-language entry defaults to `title`/`lead`/`body`;
   * the second-language entry is read under the goal's `secondLanguage`.
   */
  locales: Record<string, LocaleContentInput>;
  /** Keyed by workflow step name; ignored in cluster mode. */
  steps: Record<string, StepInput>;
  articles: ArticleInput[];
  clusters: ClusterInput[];
  /** Article identifiers that joined the cluster in this version. */
  newArticles?: string[];
  sections: SectionInput[];
  /** The chosen featured image, or null when nobody chose one. */
  image: ImageInput | null;
  aiModel: string;
  tokensUsed: number;
  cost: number;
}
