import { ConditionalKeys, EventKeys, ModeKeys, PayloadCommon, PayloadV5 } from '../types/payload.types';

/**
 * Writes the typed parts into one object in the spec's key order (§2.2 table, then §2.3), see PAYLOAD_KEY_ORDER.
 * Keys are set one by one rather than spread, so absent keys are truly absent and no intermediate objects are made.
 */
export function inSpecOrder(common: PayloadCommon, mode: ModeKeys, event: EventKeys, extra: ConditionalKeys): PayloadV5 {
  const out: Record<string, unknown> = {
    payload_version: common.payload_version,
    mode: mode.mode,
    event: event.event,
    result_id: common.result_id,
    revision: common.revision,
    workflow_execution: common.workflow_execution,
    workflow_name: common.workflow_name,
    title: common.title,
    lead: common.lead,
    executed_at: common.executed_at,
    published_at: common.published_at,
    source_lang: common.source_lang,
    articles_count: common.articles_count,
    articles: common.articles,
    clusters: common.clusters,
    llm_response: mode.llm_response,
  };
  if (mode.mode === 'article') out['locales'] = mode.locales;
  out['steps'] = mode.steps;
  out['ai_model'] = common.ai_model;
  out['tokens_used'] = common.tokens_used;
  out['cost'] = common.cost;
  if (extra.sections !== undefined) out['sections'] = extra.sections;
  if (extra.image !== undefined) out['image'] = extra.image;
  if (extra.tags !== undefined) out['tags'] = extra.tags;
  if (extra.publish_mode !== undefined) out['publish_mode'] = extra.publish_mode;
  if (extra.fields !== undefined) out['fields'] = extra.fields;
  if (event.event === 'cluster.updated') {
    out['parent_execution'] = event.parent_execution;
    out['new_articles'] = event.new_articles;
  }
  // Every value above comes from the typed parts, whose union members are exactly PayloadV5's.
  return out as unknown as PayloadV5;
}
