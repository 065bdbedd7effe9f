import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DeliveryRequested, DeliveryRetryRequested, GoalChanged, DeliveryRetryDue, is,
  type DeliveryRequestedPayload, type DeliveryRetryDuePayload, type DeliveryRetryRequestedPayload,
  type EventEnvelope, type GoalChangedPayload,
} from '@owd/events';
import { afterCommit, columnsOf, packBytes, type Column } from '@owd/database';
import { MessagingService, on, type ChunkEvent, type TraceCarrier } from '@owd/kafka';
import { DeliveryWorker } from './delivery-worker.service';
import { originKey } from './origin-key';
import { WorkQueue, type DueAttempt } from './work-queue.repository';

const S = '"dispatcher"';

/** A delivery.requested of a chunk, with its payload and its body's bytes. */
type Requested = ChunkEvent & { d: DeliveryRequestedPayload; body: Buffer };

/** The deliveries row of a request, column by column in the insert's order, the body apart (packBytes; columnsOf). */
const DELIVERY_COLUMNS: readonly Column<Requested>[] = [
  (r) => r.d.deliveryId, (r) => r.d.resultId, (r) => r.d.goalId, (r) => r.d.revision, (r) => r.d.bodySha256, (r) => r.d.executedAt,
  (r) => r.d.reason, (r) => r.envelope.correlationId, (r) => r.d.goalVersion ?? null,
];

interface DeliveryState {
  goal_id: string;
  series: number;
  status: string;
  last_attempt: number;
  last_outcome: string | null;
}

/**
 * The dispatcher's consumers. Handlers only write the dispatcher's own tables (in the consumer's
 * transaction); the HTTP work happens in DeliveryWorker, so no handler ever waits on a receiver.
 */
@Injectable()
export class DeliveryIntake implements OnModuleInit {
  private readonly logger = new Logger(DeliveryIntake.name);

  constructor(private readonly messaging: MessagingService, private readonly worker: DeliveryWorker, private readonly queue: WorkQueue) {}

  onModuleInit(): void {
    this.messaging.consume({
      groupId: 'dispatcher.goals',
      on: [on(GoalChanged, (envelope, manager) => this.goalChanged(envelope, manager))],
    });
    this.messaging.consume({
      groupId: 'dispatcher.deliveries',
      // A delivery.requested is recognised again by its deliveryId (the deliveries row, kept for good): its event id is
      // not recorded. The retries' handlers compare the delivery's state, which a copy could still find waiting.
      on: [on(DeliveryRequested, { idempotent: true }), on(DeliveryRetryDue), on(DeliveryRetryRequested)],
      handleChunk: (events, manager) => this.deliveries(events, manager),
    });
  }

  /** A chunk is one topic's: new deliveries are stored together; retries, rare, one by one in order. */
  async deliveries(events: readonly ChunkEvent[], manager: EntityManager): Promise<void> {
    if (events.every((e) => is(e.envelope, DeliveryRequested))) return this.deliveriesRequested(events, manager);
    for (const event of events) {
      const { envelope, trace } = event;
      if (is(envelope, DeliveryRequested)) await this.deliveriesRequested([event], manager);
      else if (is(envelope, DeliveryRetryDue)) await this.retryDue(envelope, manager, trace);
      else if (is(envelope, DeliveryRetryRequested)) await this.retryRequested(envelope, manager, trace);
    }
  }

  /** Keeps the newest snapshot of a goal's delivery settings; an older version never overwrites it. */
  async goalChanged({ payload: g }: EventEnvelope<GoalChangedPayload>, manager: EntityManager): Promise<void> {
    const origin = originKey(g.deliveryMode, g.recipientUrl);
    const applied: unknown[] = await manager.query(
      `INSERT INTO ${S}.goals (goal_id, version, deleted, recipient_url, delivery_mode, secret_ciphertext, origin_key, workspace_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (goal_id) DO UPDATE SET version = EXCLUDED.version, deleted = EXCLUDED.deleted,
         recipient_url = EXCLUDED.recipient_url, delivery_mode = EXCLUDED.delivery_mode,
         secret_ciphertext = EXCLUDED.secret_ciphertext, origin_key = EXCLUDED.origin_key,
         workspace_id = EXCLUDED.workspace_id, updated_at = now()
       WHERE ${S}.goals.version < EXCLUDED.version
       RETURNING goal_id`,
      [g.goalId, g.version, g.deleted, g.recipientUrl, g.deliveryMode, g.secretCiphertext, origin, g.workspaceId],
    );
    if (applied.length === 0) return;
    // Waiting attempts now go elsewhere (or their goal just arrived): they count against the new origin.
    await manager.query(
      `UPDATE ${S}.attempts_due w SET origin_key = $2 FROM ${S}.deliveries d
        WHERE d.delivery_id = w.delivery_id AND d.goal_id = $1 AND w.origin_key <> $2`,
      [g.goalId, origin],
    );
  }

  /**
   * Stores the frozen bytes and makes attempt 1 due now, for the whole chunk in two statements; a repeated
   * deliveryId changes nothing. Each work row keeps its event's trace: the attempt is made in it. The attempts
   * the worker has slots for are claimed as they are inserted and sent with the bytes in hand once the chunk commits.
   */
  async deliveriesRequested(events: readonly ChunkEvent[], manager: EntityManager): Promise<void> {
    const requested = events.map((e): Requested => ({
      ...e, d: (e.envelope as EventEnvelope<DeliveryRequestedPayload>).payload,
      body: Buffer.from((e.envelope as EventEnvelope<DeliveryRequestedPayload>).payload.bodyBase64, 'base64'),
    }));
    const [deliveryIds, resultIds, goalIds, revisions, sha256s, executedAts, reasons, correlationIds, goalVersions] = columnsOf(requested, DELIVERY_COLUMNS);
    // The bodies as one binary parameter cut by offset (packBytes), not a bytea[] of hex text.
    const bodies = packBytes(requested.map((r) => r.body));
    const inserted: { delivery_id: string; created_at: Date }[] = await manager.query(
      `INSERT INTO ${S}.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id, goal_version)
       SELECT u.delivery_id, u.result_id, u.goal_id, u.revision, substring($5::bytea FROM u.body_start FOR u.body_length), u.body_sha256,
         u.executed_at, u.reason, u.correlation_id, u.goal_version
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::int[], $6::int[], $7::int[], $8::text[], $9::timestamptz[], $10::text[], $11::text[], $12::int[])
         AS u(delivery_id, result_id, goal_id, revision, body_start, body_length, body_sha256, executed_at, reason, correlation_id, goal_version)
       ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id, created_at`,
      [
        deliveryIds, resultIds, goalIds, revisions, bodies.bytes, bodies.starts, bodies.lengths, sha256s, executedAts, reasons,
        correlationIds, goalVersions,
      ],
    );
    const fresh = new Map(inserted.map((r) => [r.delivery_id, r.created_at]));
    const due: DueAttempt[] = [];
    for (const r of requested) {
      const createdAt = fresh.get(r.d.deliveryId.toLowerCase());
      // delete(): a delivery twice in one chunk is made due once.
      fresh.delete(r.d.deliveryId.toLowerCase());
      if (createdAt === undefined) {
        this.logger.log({ msg: 'delivery already known; request ignored', deliveryId: r.d.deliveryId, eventId: r.envelope.eventId });
        continue;
      }
      due.push({
        deliveryId: r.d.deliveryId, series: 1, attempt: 1, causationId: r.envelope.eventId, trace: r.trace,
        delivery: {
          deliveryId: r.d.deliveryId, resultId: r.d.resultId, goalId: r.d.goalId, revision: r.d.revision, body: r.body,
          bodySha256: r.d.bodySha256, correlationId: r.envelope.correlationId, createdAt, goalVersion: r.d.goalVersion ?? null,
        },
      });
    }
    await this.makeDue(manager, due);
  }

  /** A retry timer fired: attempt N is due now, if the delivery still waits for exactly that attempt. */
  async retryDue({ eventId, payload: r }: EventEnvelope<DeliveryRetryDuePayload>, manager: EntityManager, trace: TraceCarrier): Promise<void> {
    const delivery = await this.lock(manager, r.deliveryId);
    const expected = delivery?.status === 'pending' && delivery.last_attempt === r.attempt - 1 && delivery.last_outcome === 'retriable';
    if (!delivery || !expected) {
      this.logger.log({ msg: 'retry-due ignored: the delivery does not wait for this attempt', deliveryId: r.deliveryId, attempt: r.attempt, status: delivery?.status ?? 'unknown' });
      return;
    }
    await this.makeDue(manager, [{ deliveryId: r.deliveryId, series: delivery.series, attempt: r.attempt, causationId: eventId, trace }]);
  }

  /** Manual retry of a failed delivery: the same bytes in a new series of attempts, starting at 1. */
  async retryRequested({ eventId, payload: r }: EventEnvelope<DeliveryRetryRequestedPayload>, manager: EntityManager, trace: TraceCarrier): Promise<void> {
    const delivery = await this.lock(manager, r.deliveryId);
    if (delivery?.status !== 'failed' || delivery.goal_id !== r.goalId) {
      this.logger.log({ msg: 'manual retry ignored: no failed delivery of this goal with that id', deliveryId: r.deliveryId, status: delivery?.status ?? 'unknown' });
      return;
    }
    const series = delivery.series + 1;
    await manager.query(
      `UPDATE ${S}.deliveries SET series = $2, status = 'pending', last_attempt = 0, last_outcome = NULL,
         next_attempt_at = NULL, updated_at = now() WHERE delivery_id = $1`,
      [r.deliveryId, series],
    );
    await this.makeDue(manager, [{ deliveryId: r.deliveryId, series, attempt: 1, causationId: eventId, trace }]);
    this.logger.log({ msg: 'manual retry series started', deliveryId: r.deliveryId, series });
  }

  private async lock(manager: EntityManager, deliveryId: string): Promise<DeliveryState | undefined> {
    const rows: DeliveryState[] = await manager.query(
      `SELECT goal_id, series, status, last_attempt, last_outcome FROM ${S}.deliveries WHERE delivery_id = $1 FOR UPDATE`,
      [deliveryId],
    );
    return rows[0];
  }

  /**
   * Work rows due now, in one statement. Those the worker has slots for are claimed as they go in (a new delivery's
   * bytes are at hand) and start once the chunk commits; the rest wait for the worker's claim, woken at the commit.
   */
  private async makeDue(manager: EntityManager, due: readonly DueAttempt[]): Promise<void> {
    if (due.length === 0) return;
    // Retries hold their delivery's row lock and have no bytes at hand: they are left to the worker's claim.
    const { inserted, claimed } = due.every((d) => d.delivery)
      ? await this.worker.claimAsInserted(manager, (request) => this.queue.addDue(manager, due, request))
      : await this.queue.addDue(manager, due, null);
    // The worker takes the rest at once instead of at its next poll (DISPATCH_POLL_MS).
    if (claimed.length < inserted) afterCommit(manager, this.worker.kick);
  }
}
