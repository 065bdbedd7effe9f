/** The payload shape version; every receiver gets the same one (§9). */
export const PAYLOAD_VERSION = 5;

export const PAYLOAD_MODES = ['article', 'cluster'] as const;
export type PayloadMode = (typeof PAYLOAD_MODES)[number];

export const PAYLOAD_EVENTS = ['workflow.action', 'cluster.updated'] as const;
export type PayloadEvent = (typeof PAYLOAD_EVENTS)[number];

export const PUBLISH_MODES = ['moderation', 'draft', 'publish'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

export const BLOCK_TYPES = ['paragraph', 'heading', 'list', 'quote', 'table', 'image', 'embed'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** Section types the service produces; a contract may list others, the type is an open string. */
export const KNOWN_SECTION_TYPES = ['content', 'faq', 'key_points', 'timeline', 'gallery'] as const;

/** Every receiver renders these, so they are the floor the fallback lands on (§1). */
export const BASELINE_SECTION_TYPE = 'content';
export const BASELINE_BLOCK_TYPE = 'paragraph';

/**
 * Largest body sent to a receiver: 2 MiB. A revision whose body would be larger is not sent (PayloadInputError
 * `body_too_large`; its result reads `rejected` with the sizes). The bound keeps every delivery.requested, which carries
 * the body in base64 (4/3 of it), under the 4 MiB a topic takes (TOPIC_MAX_MESSAGE_BYTES in @owd/events): an event the
 * broker refused would hold up every event its producer sends after it.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export const SEO_DESCRIPTION_MAX_CHARS = 160;
export const SLUG_MAX_CHARS = 100;

/** Key order of the body: the spec's §2.2 table order, then the §2.3 conditional keys. */
export const PAYLOAD_KEY_ORDER = [
  'payload_version',
  'mode',
  'event',
  'result_id',
  'revision',
  'workflow_execution',
  'workflow_name',
  'title',
  'lead',
  'executed_at',
  'published_at',
  'source_lang',
  'articles_count',
  'articles',
  'clusters',
  'llm_response',
  'locales',
  'steps',
  'ai_model',
  'tokens_used',
  'cost',
  'sections',
  'image',
  'tags',
  'publish_mode',
  'fields',
  'parent_execution',
  'new_articles',
] as const;
export type PayloadKey = (typeof PAYLOAD_KEY_ORDER)[number];

/** How every timestamp in the body is written: UTC, milliseconds, explicit `+00:00`. */
export const UTC_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

/** Language codes used as `locales` keys: lowercase BCP 47 language, optional subtags. */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** Receiver field keys (§2.4). */
export const FIELD_KEY_PATTERN = /^[a-z0-9_]{1,40}$/;
