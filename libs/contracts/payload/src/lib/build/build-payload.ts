import { BuildPayloadInput } from '../input/build-payload.input';
import { MAX_BODY_BYTES, PAYLOAD_VERSION } from '../payload.constants';
import { PayloadInputError } from '../errors/payload-input.error';
import { PayloadCommon, PayloadV5 } from '../types/payload.types';
import { buildConditionalKeys } from './build-conditional-keys';
import { buildEventKeys } from './build-event-keys';
import { buildModeKeys } from './build-mode-keys';
import { buildArticles, buildClusters } from './build-sources';
import { assertAmount, assertInteger } from './number-guards';
import { inSpecOrder } from './order-keys';
import { serializePayload } from './serialize-payload';
import { toUtcTimestamp } from './timestamp';

export interface BuiltPayload {
  payload: PayloadV5;
  /** The exact bytes to send and sign. */
  body: Buffer;
}

/**
 * Builds the payload v5 body for one delivery. Pure: no clock, no I/O; the same input always gives the same bytes.
 * @throws PayloadInputError (or its subclasses) when the input cannot become a valid payload.
 */
export function buildPayload(input: BuildPayloadInput): BuiltPayload {
  const payload = assemblePayload(input);
  const body = serializePayload(payload);
  if (body.length > MAX_BODY_BYTES) {
    throw new PayloadInputError('body_too_large', `the body would be ${body.length} bytes; at most ${MAX_BODY_BYTES} (2 MiB) are sent`);
  }
  return { payload, body };
}

function assemblePayload(input: BuildPayloadInput): PayloadV5 {
  const { revision, goal } = input;
  // Both timestamps are the creation time (§2.2) and must not move on retries (§6 rule 4).
  const createdAt = toUtcTimestamp(revision.executedAt, 'executedAt');
  const articles = buildArticles(revision.articles);
  const common: PayloadCommon = {
    payload_version: PAYLOAD_VERSION,
    result_id: revision.resultId,
    revision: assertInteger(revision.revision, 'revision', 1),
    workflow_execution: revision.workflowExecution,
    workflow_name: goal.name,
    title: revision.title,
    lead: revision.lead,
    executed_at: createdAt,
    published_at: createdAt,
    source_lang: revision.sourceLang,
    articles_count: articles.length,
    articles,
    clusters: buildClusters(revision.clusters),
    ai_model: revision.aiModel,
    tokens_used: assertInteger(revision.tokensUsed, 'tokensUsed', 0),
    cost: assertAmount(revision.cost, 'cost'),
  };
  return inSpecOrder(common, buildModeKeys(revision, goal), buildEventKeys(revision, input.event), buildConditionalKeys(input));
}
