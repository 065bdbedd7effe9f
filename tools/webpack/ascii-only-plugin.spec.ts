import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpack from 'webpack';
import { AsciiOnlyPlugin } from './ascii-only-plugin';

// Non-ASCII in a comment, strings, a template, an identifier, a regular expression (astral, u flag), an identity
// escape, and a line separator in a string; `marker` follows non-ASCII on its line, for the source map.
const SOURCE = [
  '// Kommentar: § … → ünïcode',
  "const café = 'a § b … c → 😀';",
  "const escaped = '\\§';",
  'const template = `t→${1}→`;',
  "const astral = /^[é😀]$/u.test('😀') && !/^[é😀]$/u.test('\\uD83D');",
  "const separator = 'x\u2028y';",
  "const marker = '→'; module.exports = { café, escaped, template, astral, separator, marker, where: () => new Error('here').stack };",
  '',
].join('\n');

function build(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    webpack({
      mode: 'none', target: 'node', context: dir, entry: './entry.js', devtool: 'source-map',
      output: { path: join(dir, 'dist'), filename: 'main.js', library: { type: 'commonjs2' } },
      plugins: [new AsciiOnlyPlugin()],
    }, (error, stats) => (error || stats?.hasErrors() ? reject(error ?? new Error(stats?.toString())) : resolve()));
  });
}

describe('AsciiOnlyPlugin', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ascii-only-'));
    writeFileSync(join(dir, 'entry.js'), SOURCE);
    await build(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('emits JavaScript in which every character is ASCII but the line separators strings may hold', () => {
    const emitted = readFileSync(join(dir, 'dist/main.js'), 'utf8');
    expect(emitted.replace(/[\u2028\u2029]/g, '')).not.toMatch(/[\u0080-\uffff]/);
    expect(emitted).toContain('\\u00a7');
  });

  it('means what the source meant', () => {
    const built = require(join(dir, 'dist/main.js'));
    const original = require(join(dir, 'entry.js'));
    for (const key of ['café', 'escaped', 'template', 'astral', 'separator', 'marker']) expect([key, built[key]]).toEqual([key, original[key]]);
    expect(built).toMatchObject({ café: 'a § b … c → 😀', escaped: '§', template: 't→1→', astral: true, separator: 'x\u2028y' });
  });

  it('keeps the source map pointing at the source, after the escapes on a line', () => {
    const emitted = readFileSync(join(dir, 'dist/main.js'), 'utf8').split('\n');
    const map = new SourceMap(JSON.parse(readFileSync(join(dir, 'dist/main.js.map'), 'utf8')));
    const line = emitted.findIndex((text) => text.includes('const marker'));
    const column = emitted[line].indexOf('module.exports = {');
    const entry = map.findEntry(line, column) as { originalLine: number; originalColumn: number };
    const sourceLines = SOURCE.split('\n');
    expect(entry.originalLine).toBe(sourceLines.findIndex((text) => text.startsWith('const marker')));
    expect(entry.originalColumn).toBe(sourceLines[entry.originalLine].indexOf('module.exports = {'));
  });
});
