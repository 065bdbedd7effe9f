import { PublishMode } from '../payload.constants';
import { Section } from './section.types';

/** Entry of `locales`, keyed by language code (§2.2). */
export interface LocaleEntry {
  title: string;
  slug: string;
  lead: string;
  /** Markdown. */
  body: string;
  seo_description: string;
  /** `body` rendered to sanitized HTML. */
  body_html: string;
}

/** Entry of `steps`, keyed by workflow step name (§2.2). */
export interface StepEntry {
  text: string;
  model: string;
  tokens: number;
  cost: number;
}

/** Element of `articles`: a source article. */
export interface PayloadArticle {
  id: string;
  title: string;
  url: string;
  /** Publication the article comes from. */
  source: string;
  /** ISO 8601 with `+00:00`; null when the source did not date the article. */
  published_at: string | null;
  lang: string;
}

/** Element of `clusters`; element 0 carries the cluster description (§2.2). */
export interface PayloadCluster {
  id: string;
  description: string;
  keywords: string[];
  version: number;
}

/** `image`: present only when someone chose a featured image (§2.3). */
export interface PayloadImage {
  url: string;
  attribution: string;
}

/** Receiver field value: enum (string, or string[] when `multiple`), text (string), bool (boolean); null = no value. */
export type FieldValue = string | string[] | boolean | null;

/** Keys present in every payload (§2.2), except the ones whose shape depends on `mode` or `event`. */
export interface PayloadCommon {
  payload_version: 5;
  result_id: string;
  revision: number;
  workflow_execution: string;
  workflow_name: string;
  title: string | null;
  lead: string | null;
  executed_at: string;
  published_at: string;
  source_lang: string;
  articles_count: number;
  articles: PayloadArticle[];
  clusters: PayloadCluster[];
  ai_model: string;
  tokens_used: number;
  cost: number;
}

/** `mode: article`: generated content travels as markdown and per language. */
export interface ArticleModeKeys {
  mode: 'article';
  llm_response: string;
  locales: Record<string, LocaleEntry>;
  steps: Record<string, StepEntry>;
}

/** `mode: cluster`: no generated content; `locales` is absent and `steps` is `{}` (§2.2). */
export interface ClusterModeKeys {
  mode: 'cluster';
  llm_response: null;
  locales?: never;
  steps: Record<string, never>;
}

/** `event: workflow.action`: first delivery; no version keys. */
export interface FirstDeliveryKeys {
  event: 'workflow.action';
  parent_execution?: never;
  new_articles?: never;
}

/** `event: cluster.updated`: a later version (§6). */
export interface ClusterUpdatedKeys {
  event: 'cluster.updated';
  /** Execution of the previous version; null after a text-only change of a result with no previous version. */
  parent_execution: string | null;
  /** Identifiers of articles that joined the cluster; empty after a text-only change. */
  new_articles: string[];
}

/** Keys sent only when there is something to send (§2.3); a missing key never means "empty". */
export interface ConditionalKeys {
  /** Never an empty array. */
  sections?: Section[];
  image?: PayloadImage;
  /** Keywords of the clusters, never empty. */
  tags?: string[];
  publish_mode?: PublishMode;
  /** Only when the receiver reported fields; one entry per reported field. */
  fields?: Record<string, FieldValue>;
}

export type ModeKeys = ArticleModeKeys | ClusterModeKeys;
export type EventKeys = FirstDeliveryKeys | ClusterUpdatedKeys;

/** The body of a delivery, payload_version 5. */
export type PayloadV5 = PayloadCommon & ModeKeys & EventKeys & ConditionalKeys;
