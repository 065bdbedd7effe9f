// A small customer receiver for the demo: verifies X-SH-Signature over the raw bytes before parsing,
// answers 204 at once, and prints what it got. Loopback only.
//   RECEIVER_SECRET=... RECEIVER_PORT=4000 npx tsx tools/demo/receiver.ts
import { createServer } from 'node:http';
import { verify } from '@owd/signer';

const secret = process.env['RECEIVER_SECRET'] ?? '';
const port = Number(process.env['RECEIVER_PORT'] ?? 4000);

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const check = secret ? verify(secret, req.headers, raw) : { ok: true as const };
    if (!check.ok) {
      console.log(JSON.stringify({ receiver: 'rejected', reason: check.reason }));
      res.writeHead(401).end();
      return;
    }
    const body = JSON.parse(raw.toString('utf8')) as { event: string; result_id: string; revision: number; title: string | null };
    console.log(JSON.stringify({
      receiver: 'accepted', signature: secret ? 'valid' : 'none', delivery: req.headers['x-sh-delivery'],
      event: body.event, result_id: body.result_id, revision: body.revision, title: body.title, bytes: raw.length,
    }));
    res.writeHead(204).end();
  });
}).listen(port, '127.0.0.1', () => console.log(JSON.stringify({ receiver: 'listening', port })));
