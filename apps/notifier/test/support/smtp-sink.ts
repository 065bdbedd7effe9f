import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The raw message with its headers unfolded and decoded and its quoted-printable body undone. */
  text: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Messages to `recipient` so far. */
  to(recipient: string): ReceivedMail[];
  /** The next message to `recipient` gets `code` (e.g. 451, try again later) instead of 250. */
  rejectNext(recipient: string, code: number): void;
  close(): Promise<void>;
}

function qpDecode(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? /^[0-9A-F]{2}/.exec(text.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Unfolds and decodes (RFC 2047 Q words) the headers and undoes the quoted-printable body, so tests read plain text. */
function readable(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split)
    .replace(/\r\n(?=[ \t])/g, '')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, word: string) => qpDecode(word.replace(/_/g, ' ')));
  return headers + qpDecode(raw.slice(split).replace(/=\r\n/g, ''));
}

/** A real SMTP server on 127.0.0.1 (no TLS, no auth) that keeps what it receives. */
export async function startSmtpSink({ acceptDelayMs = 0 } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const rejections = new Map<string, number>();
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((a) => a.address);
        const code = to.map((r) => rejections.get(r)).find((c) => c !== undefined);
        if (code !== undefined) {
          to.forEach((r) => rejections.delete(r));
          callback(Object.assign(new Error('Try again later'), { responseCode: code }));
          return;
        }
        received.push({ to, text: readable(Buffer.concat(chunks).toString('utf8')) });
        setTimeout(() => callback(null, 'queued'), acceptDelayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (recipient) => received.filter((m) => m.to.includes(recipient)),
    rejectNext: (recipient, code) => void rejections.set(recipient, code),
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
