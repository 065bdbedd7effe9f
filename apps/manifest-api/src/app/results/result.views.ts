import { ApiProperty } from '../openapi/api-docs';
import { ATTEMPT_OUTCOMES, type AttemptOutcome } from '@owd/events';
import type { FieldValue } from '@owd/payload';
import type { DeliveryAttemptEntity } from './delivery-attempt.entity';
import type { ResultRevisionEntity } from './result-revision.entity';
import { ResultContentDto } from './dto/result-content.dto';
import { RESULT_STATES, type ResultEntity, type ResultState } from './result.entity';

export class LastErrorView {
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the receiver, null without an answer' }) status!: number | null;
  @ApiProperty({ enum: ATTEMPT_OUTCOMES }) outcome!: string;
  @ApiProperty({ type: String, nullable: true, example: 'timeout' }) errorClass!: string | null;
  @ApiProperty({ type: String, nullable: true }) errorMessage!: string | null;
  @ApiProperty({ format: 'date-time' }) attemptedAt!: string;
}

export class ResultStateView {
  @ApiProperty({ enum: RESULT_STATES }) status!: ResultState;
  @ApiProperty({ description: 'The revision this state is about' }) revision!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why, in words (e.g. which field is missing)' }) reason!: string | null;
  @ApiProperty({ type: [String], description: 'Required receiver fields without a value (needs_approval)' }) missingFields!: string[];
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'X-SH-Delivery of the current delivery' }) deliveryId!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) nextAttemptAt!: string | null;
  @ApiProperty({ type: LastErrorView, nullable: true }) lastError!: LastErrorView | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Revision a user approved, if any; a 409 re-send carries the approval to its number' })
  approvedRevision!: number | null;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** The receiver's answer to an attempt, bounded; the body is text as received, to be shown escaped. */
export class AttemptResponseView {
  @ApiProperty({
    type: 'object', additionalProperties: { type: 'string' }, example: { 'content-type': 'application/json', 'x-request-id': 'rq-81f2' },
    description: 'Response headers (lower-case names) in the order received, up to 4 KiB; repeated headers joined with ", "',
  })
  headers!: Record<string, string>;
  @ApiProperty({
    maxLength: 5464, example: '{"error":"field desk is required"}',
    description: 'The first 4 KiB of the body exactly as received, never decompressed: text when `bodyEncoding` is `utf-8`, otherwise base64 of the bytes',
  })
  body!: string;
  @ApiProperty({ enum: ['utf-8', 'base64'], example: 'utf-8', description: '`utf-8`: the bytes are UTF-8 text (without NUL); `base64`: they are not, and `body` holds them in base64' })
  bodyEncoding!: 'utf-8' | 'base64';
  @ApiProperty({ description: 'True when the body or the headers were longer than what is kept' }) truncated!: boolean;
}

export class AttemptView {
  @ApiProperty({ format: 'uuid' }) deliveryId!: string;
  @ApiProperty() revision!: number;
  @ApiProperty({ minimum: 1, maximum: 3 }) attempt!: number;
  @ApiProperty({ example: 'cms.example.com' }) targetHost!: string;
  @ApiProperty({ type: Number, nullable: true }) status!: number | null;
  @ApiProperty() durationMs!: number;
  @ApiProperty({ enum: ATTEMPT_OUTCOMES }) outcome!: AttemptOutcome;
  @ApiProperty({ type: String, nullable: true }) errorClass!: string | null;
  @ApiProperty({ type: String, nullable: true }) errorMessage!: string | null;
  @ApiProperty({ format: 'date-time' }) attemptedAt!: string;
  @ApiProperty({ format: 'date-time', description: 'When the attempt ended (answer, timeout or failure); the retry delay counts from here' })
  endedAt!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) nextAttemptAt!: string | null;
  @ApiProperty({ description: 'No automatic attempt follows' }) final!: boolean;
  @ApiProperty({ type: AttemptResponseView, nullable: true, description: "The receiver's answer; null when none arrived (timeout, connection failure, not sent)" })
  response!: AttemptResponseView | null;

  static of(a: DeliveryAttemptEntity): AttemptView {
    return {
      deliveryId: a.deliveryId, revision: a.revision, attempt: a.attempt, targetHost: a.targetHost, status: a.status,
      durationMs: a.durationMs, outcome: a.outcome, errorClass: a.errorClass, errorMessage: a.errorMessage,
      attemptedAt: a.attemptedAt.toISOString(), endedAt: a.endedAt.toISOString(), nextAttemptAt: a.nextAttemptAt?.toISOString() ?? null, final: a.final,
      response: a.response,
    };
  }
}

export class ResultSummaryView {
  @ApiProperty({ example: 'res_4f1c…' }) id!: string;
  @ApiProperty({ format: 'uuid' }) goalId!: string;
  @ApiProperty({ description: 'The current revision, as the receiver gets it (a 409 re-send raises it)' }) revision!: number;
  @ApiProperty({ example: 'res_4f1c…', description: 'Equals the result id for revision 1' }) workflowExecution!: string;
  @ApiProperty({ type: String, nullable: true }) parentExecution!: string | null;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fieldValues!: Record<string, FieldValue>;
  @ApiProperty({ type: ResultStateView }) state!: ResultStateView;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;

  static of(r: ResultEntity): ResultSummaryView {
    return {
      id: r.id, goalId: r.goalId, revision: r.revision, workflowExecution: r.workflowExecution, parentExecution: r.parentExecution,
      title: r.content.title, fieldValues: r.fieldValues, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
      state: {
        status: r.state, revision: r.stateRevision, reason: r.stateReason, missingFields: r.missingFields, deliveryId: r.deliveryId,
        nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null, lastError: r.lastError, approvedRevision: r.approvedRevision,
        updatedAt: r.stateUpdatedAt.toISOString(),
      },
    };
  }
}

export class ResultView extends ResultSummaryView {
  @ApiProperty({ type: ResultContentDto, description: 'The current content, defaults filled in' }) content!: ResultContentDto;
  @ApiProperty({ type: [AttemptView], description: 'Every delivery attempt, oldest first' }) attempts!: AttemptView[];

  static full(r: ResultEntity, attempts: DeliveryAttemptEntity[]): ResultView {
    return { ...ResultSummaryView.of(r), content: r.content as ResultContentDto, attempts: attempts.map(AttemptView.of) };
  }
}

/** The results a batch intake created, in the order their contents were sent. */
export class ResultBatchView {
  @ApiProperty({ type: [ResultSummaryView], description: 'One summary per content sent, in the same order (no content, no attempts)' })
  results!: ResultSummaryView[];

  static of(results: readonly ResultEntity[]): ResultBatchView {
    return { results: results.map(ResultSummaryView.of) };
  }
}

/** One accepted content of a result (spec §6): how it relates to the previous one, without the content itself. */
export class RevisionView {
  @ApiProperty() revision!: number;
  @ApiProperty({ description: 'Equals the result id for revision 1, exe_… later' }) workflowExecution!: string;
  @ApiProperty({ type: String, nullable: true }) parentExecution!: string | null;
  @ApiProperty({ description: 'A text change (cluster.updated without new articles)' }) textOnlyChange!: boolean;
  @ApiProperty({ type: [String], description: 'Article ids that joined the cluster with this revision' }) newArticles!: string[];
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Set when the receiver answered 409 and this revision re-sent the content of that one' })
  resendOf!: number | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;

  static of(r: ResultRevisionEntity): RevisionView {
    return {
      revision: r.revision, workflowExecution: r.workflowExecution, parentExecution: r.parentExecution, textOnlyChange: r.textOnlyChange,
      newArticles: r.newArticles, title: r.content.title, resendOf: r.resendOf, createdAt: r.createdAt.toISOString(),
    };
  }
}
