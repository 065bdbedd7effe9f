import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startReceiver, type ReceivedRequest, type TestReceiver } from '@owd/testing';

/** What a receiver does with one request. */
export type Answer =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  /** Cut the TCP connection without an answer. */
  | { reset: true }
  /** 200 headers, then a byte every 300 ms, never finishing (the dispatcher's whole-exchange timeout cuts it). */
  | { trickle: true };

/** A receiver's behaviour: `attempt` counts the requests this receiver got for the same X-SH-Delivery (1-based). */
export type Behaviour = (request: ReceivedRequest, attempt: number) => Answer;

export const answer204: Behaviour = () => ({ status: 204 });

/** Fails each delivery's first attempt (503), so retry timers and retry-due events are in play. */
export const failFirst: Behaviour = (_req, attempt) => (attempt === 1 ? { status: 503 } : { status: 204 });

/** One request as the ledger sees it. */
export interface LedgerEntry {
  resultId: string;
  revision: number;
  deliveryId: string;
  bodySha: string;
  at: number;
  answer: string;
  /** True when the receiver accepted the request (2xx). */
  accepted: boolean;
}

/**
 * A loopback receiver that records every request it gets together with what it answered. Before `arm()`
 * it answers 204 and records nothing (goal setup: the Send test); after, every request goes into the ledger.
 */
export class LedgerReceiver {
  readonly entries: LedgerEntry[] = [];
  /** Requests read but not answered yet (a slow answer in progress). */
  unanswered = 0;
  private behaviour: Behaviour | undefined;
  private readonly perDelivery = new Map<string, number>();

  private constructor(readonly receiver: TestReceiver) {}

  static async start(): Promise<LedgerReceiver> {
    const ledger: LedgerReceiver = new LedgerReceiver(await startReceiver((req, res) => ledger.respond(req, res)));
    return ledger;
  }

  get url(): string {
    return `${this.receiver.url}/hook`;
  }

  arm(behaviour: Behaviour): void {
    this.behaviour = behaviour;
  }

  /** Changes the behaviour mid-stream (e.g. a flapping receiver recovering). */
  handle(behaviour: Behaviour): void {
    this.behaviour = behaviour;
  }

  close(): Promise<void> {
    return this.receiver.close();
  }

  private respond(req: ReceivedRequest, res: ServerResponse): void {
    if (!this.behaviour) {
      res.writeHead(204).end();
      return;
    }
    const deliveryId = String(req.headers['x-sh-delivery'] ?? '');
    const attempt = (this.perDelivery.get(deliveryId) ?? 0) + 1;
    this.perDelivery.set(deliveryId, attempt);
    const answer = this.behaviour(req, attempt);
    let body: { result_id?: string; revision?: number } = {};
    try {
      body = JSON.parse(req.body.toString('utf8')) as typeof body;
    } catch {
      // recorded with an empty result id: the ledger reports it as an unknown request
    }
    this.entries.push({
      resultId: String(body.result_id ?? ''), revision: Number(body.revision ?? 0), deliveryId,
      bodySha: createHash('sha256').update(req.body).digest('hex'), at: req.at,
      answer: 'status' in answer ? String(answer.status) : 'reset' in answer ? 'reset' : 'trickle',
      accepted: 'status' in answer && answer.status >= 200 && answer.status < 300,
    });
    if ('reset' in answer) {
      res.socket?.destroy(); // the request was read in full; the connection drops without a word
    } else if ('trickle' in answer) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 300);
      res.on('close', () => clearInterval(drip));
    } else {
      this.unanswered += 1;
      setTimeout(() => {
        this.unanswered -= 1;
        if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    }
  }
}
