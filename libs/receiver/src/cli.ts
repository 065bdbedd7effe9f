#!/usr/bin/env node
// owd-receiver listen: a local receiver that verifies and prints each delivery (see docs/receiving-webhooks.md).
import { parseArgs } from 'node:util';
import { listen } from './lib/listen';

const USAGE = `Usage: owd-receiver listen [--secret <secret>] [--port 4000] [--host 127.0.0.1]
                            [--status <code>[,<code>...]] [--revision <n>] [--tolerance <seconds>]

  --secret     the receiver secret (or set WEBHOOK_SECRET); without it nothing is verified
  --status     status of the 1st, 2nd, ... delivery; the last one repeats (default 204)
  --revision   with --status 409: answer {"revision": <n>}, the 409 protocol
  --tolerance  accepted X-SH-Timestamp distance in seconds (default 300)`;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        secret: { type: 'string' },
        port: { type: 'string', default: '4000' },
        host: { type: 'string', default: '127.0.0.1' },
        status: { type: 'string' },
        revision: { type: 'string' },
        tolerance: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return usage();
  if (positionals.join(' ') !== 'listen') return usage(`unknown command: ${positionals.join(' ') || '(none)'}`);

  const port = wholeNumber(values.port, 0, 65535);
  const statuses = (values.status ?? '204').split(',').map((s) => wholeNumber(s.trim(), 200, 599));
  const revision = values.revision === undefined ? undefined : wholeNumber(values.revision, 1, Number.MAX_SAFE_INTEGER);
  const tolerance = values.tolerance === undefined ? undefined : wholeNumber(values.tolerance, 0, Number.MAX_SAFE_INTEGER);
  if (port === undefined) return usage('--port must be 0-65535');
  if (statuses.some((s) => s === undefined)) return usage('--status must be HTTP status codes 200-599, separated by commas');
  if (values.revision !== undefined && revision === undefined) return usage('--revision must be a whole number >= 1');
  if (values.tolerance !== undefined && tolerance === undefined) return usage('--tolerance must be whole seconds');
  const secret = values.secret ?? env['WEBHOOK_SECRET'];
  if (secret === '') return usage('--secret must not be empty');

  const listener = await listen({
    secret, port, host: values.host, statuses: statuses as number[], revision, toleranceSeconds: tolerance,
  });
  console.log(`Listening on ${listener.url} (${secret ? 'checking the signature with the given secret' : 'no secret: nothing is verified'}); Ctrl-C stops`);
  process.once('SIGINT', () => void listener.close());
  process.once('SIGTERM', () => void listener.close());
  return 0;
}

function wholeNumber(text: string | undefined, min: number, max: number): number | undefined {
  const n = Number(text);
  return text !== undefined && /^\d+$/.test(text) && n >= min && n <= max ? n : undefined;
}

function usage(error?: string): number {
  if (error) console.error(`owd-receiver: ${error}`);
  (error ? console.error : console.log)(USAGE);
  return error ? 2 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { if (code !== 0) process.exitCode = code; }, (error: unknown) => {
    console.error(`owd-receiver: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
