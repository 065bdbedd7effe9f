// The package as a customer gets it: libs/receiver/scripts/pack.mjs builds and packs it, npm installs the
// tarball into a scratch project, and the installed ESM, CJS, types and bin verify the published vectors.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
// The services' @owd/signer re-exports this very sign(): the request is signed as the dispatcher signs it.
import { DELIVERY_HEADER, sign } from '../src';

const root = resolve(__dirname, '../../..');
const vectorsFile = join(root, 'docs/signature-test-vectors.json');
const scratch = mkdtempSync(join(tmpdir(), 'owd-receiver-pack-'));
const installed = join(scratch, 'node_modules/@owd/receiver');
const quiet = { cwd: scratch, encoding: 'utf8' as const, stdio: 'pipe' as const, env: { ...process.env, npm_config_update_notifier: 'false' } };

// Same checks in both module systems: every vector accepted, a changed body and malformed input rejected.
const check = (load: string): string => `${load}
const vectors = JSON.parse(readFileSync(${JSON.stringify(vectorsFile)}, 'utf8')).cases;
const results = vectors.map((c) => {
  const headers = { 'x-sh-signature': c.expected_signature_header, 'x-sh-timestamp': String(c.timestamp) };
  const body = Buffer.from(c.body_base64, 'base64');
  return [c.name, verify(c.secret, headers, body, { now: c.timestamp }).ok,
    verify(c.secret, headers, Buffer.concat([body, Buffer.from(' ')]), { now: c.timestamp }).reason];
});
const malformed = [{ 'x-sh-signature': ['a', 'b'], 'x-sh-timestamp': '1e9' }, { 'x-sh-signature': 'sha256=' + 'g'.repeat(64), 'x-sh-timestamp': '1' }, {}]
  .map((h) => verify('s', h, Buffer.from('x'), { now: 1 }).reason);
console.log(JSON.stringify({ results, malformed, bearer: verifyBearer('s', { authorization: 'Bearer s' }).ok }));
`;

describe('@owd/receiver packed and installed', () => {
  beforeAll(() => {
    const tarball = execFileSync(process.execPath, [join(root, 'libs/receiver/scripts/pack.mjs'), join(scratch, 'pack')], quiet).trim().split('\n').pop() ?? '';
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    // --offline: a package with no dependencies installs without a registry.
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], quiet);
  }, 180_000);

  it('is a public package with no runtime dependencies, shipping only dist and its manifest', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@owd/receiver', bin: { 'owd-receiver': './dist/cli.cjs' } });
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    const files = execFileSync('find', ['.', '-type', 'f'], { ...quiet, cwd: installed }).trim().split('\n').sort();
    expect(files.every((f) => f === './package.json' || f === './README.md' || f.startsWith('./dist/'))).toBe(true);
    expect(files).toEqual(expect.arrayContaining(['./dist/index.mjs', './dist/index.cjs', './dist/cli.cjs', './dist/types/index.d.ts']));
  });

  const expected = () => {
    const cases = (JSON.parse(readFileSync(vectorsFile, 'utf8')) as { cases: Array<{ name: string }> }).cases;
    return {
      results: cases.map((c) => [c.name, true, 'signature_mismatch']),
      malformed: ['bad_timestamp', 'signature_mismatch', 'missing_signature'],
      bearer: true,
    };
  };

  it('ESM import verifies every documented vector and never throws on malformed input', () => {
    writeFileSync(join(scratch, 'check.mjs'), check(`import { verify, verifyBearer } from '@owd/receiver';\nimport { readFileSync } from 'node:fs';`));
    expect(JSON.parse(execFileSync(process.execPath, ['check.mjs'], quiet))).toEqual(expected());
  });

  it('CJS require verifies every documented vector and never throws on malformed input', () => {
    writeFileSync(join(scratch, 'check.cjs'), check(`const { verify, verifyBearer } = require('@owd/receiver');\nconst { readFileSync } = require('node:fs');`));
    expect(JSON.parse(execFileSync(process.execPath, ['check.cjs'], quiet))).toEqual(expected());
  });

  it('ships types a strict TypeScript project (node16 resolution) compiles against', () => {
    writeFileSync(
      join(scratch, 'typed.mts'),
      `import { verify, verifyMiddleware, type VerifyResult } from '@owd/receiver';\n` +
        `const r: VerifyResult = verify('s', {}, Buffer.from(''));\nif (!r.ok) { const reason: string = r.reason; void reason; }\n` +
        `void verifyMiddleware('s');\n// @ts-expect-error the body must be bytes, not parsed JSON\nverify('s', {}, { a: 1 });\n`,
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'node16', '--moduleResolution', 'node16', '--typeRoots', join(root, 'node_modules/@types'), '--types', 'node', 'typed.mts'];
    expect(() => execFileSync(process.execPath, [tsc, ...args], quiet)).not.toThrow();
  });

  describe('the owd-receiver bin', () => {
    let child: ChildProcess | undefined;
    afterEach(() => child?.kill());

    it('prints its usage with --help', () => {
      expect(execFileSync(join(scratch, 'node_modules/.bin/owd-receiver'), ['--help'], quiet)).toContain('Usage: owd-receiver listen');
    });

    it('listen verifies a signed delivery, answers the scripted 409 and prints the line', async () => {
      const proc = spawn(join(scratch, 'node_modules/.bin/owd-receiver'), ['listen', '--port', '0', '--status', '409', '--revision', '5'], {
        cwd: scratch,
        env: { ...process.env, WEBHOOK_SECRET: 'bin-secret' },
      });
      child = proc;
      const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
      const first = String((await lines.next()).value);
      const url = /Listening on (\S+)/.exec(first)?.[1];
      expect(url).toBeDefined();

      const body = JSON.stringify({ event: 'result.revised', result_id: 'res_bin', revision: 3 });
      const timestamp = Math.floor(Date.now() / 1000); // the bin runs on the real clock (default tolerance 300 s)
      const headers = {
        [DELIVERY_HEADER.CONTENT_TYPE]: 'application/json',
        [DELIVERY_HEADER.DELIVERY]: 'dlv_bin',
        [DELIVERY_HEADER.TIMESTAMP]: String(timestamp),
        [DELIVERY_HEADER.SIGNATURE]: sign('bin-secret', timestamp, body),
      };
      const res = await fetch(`${url}/webhooks`, { method: 'POST', headers, body });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 409, body: { revision: 5 } });
      expect(String((await lines.next()).value)).toBe(
        '#1 POST /webhooks  event=result.revised  result=res_bin  revision=3  delivery=dlv_bin  verification=signature ok  -> 409 {"revision":5}',
      );
    });
  });
});
