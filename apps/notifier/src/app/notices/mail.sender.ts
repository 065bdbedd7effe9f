import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTransport, type NodemailerError, type SMTPSentMessageInfo, type Transporter } from 'nodemailer';
import type { NoticeMail } from './notice-mail';
import { noticeMetrics } from './notice.metrics';

export type SendOutcome =
  | { ok: true; attempts: number }
  | { ok: false; attempts: number; permanent: boolean; error: string };

const MAX_BACKOFF_MS = 60_000;

function describe(err: NodemailerError): string {
  return [err.code, err.responseCode, err.message].filter(Boolean).join(' ').slice(0, 500);
}

/**
 * Sends a notice over real SMTP with a bounded retry: transient failures (4xx, connection, timeout)
 * are retried with doubling delays; a permanent refusal (5xx) is not.
 */
@Injectable()
export class MailSender implements OnModuleDestroy {
  private readonly logger = new Logger(MailSender.name);
  private readonly transport: Transporter<SMTPSentMessageInfo>;
  private readonly from: { name: string; address: string };
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;

  constructor(config: ConfigService) {
    const timeout = config.getOrThrow<number>('SMTP_TIMEOUT_MS');
    this.transport = createTransport({
      url: config.getOrThrow<string>('SMTP_URL'),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      // The message is built from our own strings only; never read files or URLs into it.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    this.from = { name: config.getOrThrow<string>('NOTICE_FROM_NAME'), address: config.getOrThrow<string>('NOTICE_FROM') };
    this.maxAttempts = config.getOrThrow<number>('SMTP_MAX_ATTEMPTS');
    this.retryBaseMs = config.getOrThrow<number>('SMTP_RETRY_BASE_MS');
  }

  async send(mail: NoticeMail, signal?: AbortSignal): Promise<SendOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.transport.sendMail({
          from: this.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          // RFC 3834: an automatic message, so auto-responders stay quiet.
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
        return { ok: true, attempts: attempt };
      } catch (caught) {
        const err = caught as NodemailerError;
        const permanent = err.permanent === true;
        const last = permanent || attempt >= this.maxAttempts || signal?.aborted === true;
        const outcome = permanent ? 'rejected' : last ? 'released' : 'retried';
        noticeMetrics.failed.inc({ outcome });
        this.logger.warn({ msg: 'notice send failed', messageId: mail.messageId, attempt, outcome, error: describe(err) });
        if (last) return { ok: false, attempts: attempt, permanent, error: describe(err) };
        const delay = Math.min(this.retryBaseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
        const waited = await sleep(delay, true, { signal }).catch(() => false);
        if (!waited) return { ok: false, attempts: attempt, permanent: false, error: `shutting down: ${describe(err)}` };
      }
    }
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}
