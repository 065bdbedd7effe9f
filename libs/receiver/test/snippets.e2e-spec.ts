// The verification snippets of docs/receiving-webhooks.md are files under docs/examples/verify; each one is
// run here against every published vector (accept it; reject a changed body, an old timestamp, a malformed
// signature and timestamp). A language whose toolchain is missing is skipped with the reason printed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
const dir = join(root, 'docs/examples/verify');
const vectors = JSON.parse(readFileSync(join(root, 'docs/signature-test-vectors.json'), 'utf8')) as { cases: Array<{ name: string }> };
const tsv = execFileSync(process.execPath, [join(root, 'libs/receiver/scripts/vectors-tsv.mjs')], { encoding: 'utf8' });
const guide = readFileSync(join(root, 'docs/receiving-webhooks.md'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'owd-snippets-'));

interface Language {
  name: string;
  file: string;
  tools: string[];
  /** Commands run in order; the last one reads the vectors on stdin. */
  commands: string[][];
}

const languages: Language[] = [
  { name: 'Python', file: 'verify.py', tools: ['python3'], commands: [['python3', join(dir, 'verify.py')]] },
  { name: 'Go', file: 'verify.go', tools: ['go'], commands: [['go', 'run', join(dir, 'verify.go')]] },
  { name: 'Ruby', file: 'verify.rb', tools: ['ruby'], commands: [['ruby', join(dir, 'verify.rb')]] },
  { name: 'PHP', file: 'verify.php', tools: ['php'], commands: [['php', join(dir, 'verify.php')]] },
  { name: 'Java', file: 'Verify.java', tools: ['java'], commands: [['java', join(dir, 'Verify.java')]] },
  {
    name: 'C#',
    file: 'Verify.cs',
    tools: ['mcs', 'mono'],
    commands: [['mcs', `-out:${join(scratch, 'Verify.exe')}`, join(dir, 'Verify.cs')], ['mono', join(scratch, 'Verify.exe')]],
  },
];

const env = { ...process.env, GOCACHE: join(scratch, 'go-cache'), GOPATH: join(scratch, 'go') };
const missing = (tools: string[]): string[] => tools.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);

/** The lines between the snippet markers, without their common indentation. */
function snippet(file: string): string {
  const text = readFileSync(join(dir, file), 'utf8');
  const body = text.split('\n');
  const lines = body.slice(body.findIndex((l) => l.includes('snippet:start')) + 1, body.findIndex((l) => l.includes('snippet:end')));
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join('\n').trim();
}

describe('verification snippets (docs/examples/verify)', () => {
  it.each(languages.map((l) => [l.name, l.file] as const))('%s: the guide shows %s exactly as it is tested', (_name, file) => {
    const code = snippet(file);
    expect(code.split('\n').length).toBeGreaterThan(5);
    expect(guide).toContain(code);
  });

  for (const language of languages) {
    const absent = missing(language.tools);
    if (absent.length > 0) {
      // Never silent: the reason is printed and the test shows as skipped in the summary.
      const reason = `${language.name} snippet skipped: ${absent.join(', ')} not installed (scripts/test.sh installs it with apt-get when run as root)`;
      console.warn(reason);
      it.skip(reason, () => undefined);
      continue;
    }
    it(`${language.name}: accepts every vector and rejects the changed ones`, () => {
      const commands = language.commands;
      for (const command of commands.slice(0, -1)) execFileSync(command[0], command.slice(1), { env, stdio: 'pipe' });
      const [program, ...args] = commands[commands.length - 1];
      const run = spawnSync(program, args, { input: tsv, env, encoding: 'utf8', timeout: 180_000 });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      expect(run.stdout.trim().split('\n')).toEqual(vectors.cases.map((c) => `ok ${c.name}`));
    });
  }
});
