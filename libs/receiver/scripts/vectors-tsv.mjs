// Prints docs/signature-test-vectors.json as one tab-separated line per case for the snippets in
// docs/examples/verify (no JSON parser needed in Java or C#): name, secret (base64), timestamp, body (base64), header.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/signature-test-vectors.json');
for (const c of JSON.parse(readFileSync(file, 'utf8')).cases) {
  const secret = Buffer.from(c.secret, 'utf8').toString('base64');
  process.stdout.write([c.name, secret, String(c.timestamp), c.body_base64, c.expected_signature_header].join('\t') + '\n');
}
