import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../../..');

/** The packages patches/ changes, by their file names (`<scope>+<name>+<version>.patch`). */
const patchedPackages = readdirSync(join(ROOT, 'patches'))
  .filter((f) => f.endsWith('.patch'))
  .map((f) => f.slice(0, -'.patch'.length).split('+').slice(0, -1).join('/'));

/** Runs a script in a Node.js process of its own (a fresh module cache and untouched globals); returns its output. */
function inFreshProcess(script: string): string {
  return execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
}

describe('packages patched by the install (patches/)', () => {
  it('are taken by the image from the build stage, where the install patched them, and by the image check', () => {
    expect(patchedPackages).toEqual(expect.arrayContaining(['kafkajs', '@nestjs/common', '@nestjs/swagger', 'class-validator', 'typeorm', 'undici', 'markdown-it']));
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    for (const name of patchedPackages) {
      expect(dockerfile).toContain(`COPY --from=build /src/node_modules/${name} ./node_modules/${name}`);
    }
    // check-image.sh copies every one of them into its stage, whatever their names.
    expect(readFileSync(join(ROOT, 'scripts/check-image.sh'), 'utf8')).toMatch(/for patch in patches\/\*\.patch; do/);
  });

  describe('@nestjs/common: its loggers make their timestamp format on first use', () => {
    // A formatter made when the module loads touches ICU's locale data: ~7 MiB resident in every service, none of
    // which formats a Nest timestamp (they log through pino). docs/performance.md, sixteenth round.
    const counting = `
      const Real = Intl.DateTimeFormat; let made = 0;
      Intl.DateTimeFormat = function (...args) { made++; return new Real(...args); };`;

    it('loading it makes no Intl.DateTimeFormat', () => {
      const made = inFreshProcess(`${counting}
        require('@nestjs/common'); require('@nestjs/core');
        process.stdout.write(String(made));`);
      expect(made).toBe('0');
    });

    it('Logger and ConsoleLogger still format their timestamps as before, making the format once', () => {
      const out = JSON.parse(inFreshProcess(`${counting}
        const { Logger, ConsoleLogger } = require('@nestjs/common');
        Date.now = () => Date.UTC(2026, 10, 25, 18, 5, 9);
        const stamps = [Logger.getTimestamp(), new ConsoleLogger().getTimestamp(), Logger.getTimestamp(), new ConsoleLogger().getTimestamp()];
        const madeForStamps = made;
        // The format the package made when its modules loaded (before the patch).
        const before = new Real(undefined, { year: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', day: '2-digit', month: '2-digit' })
          .format(Date.now());
        process.stdout.write(JSON.stringify({ stamps, made: madeForStamps, before }));`)) as { stamps: string[]; made: number; before: string };
      // One format per module (logger.service.js and console-logger.service.js each hold one), made when first used.
      expect(out.made).toBe(2);
      expect(out.before).toMatch(/2026/);
      expect(out.stamps).toEqual([out.before, out.before, out.before, out.before]);
    });
  });

  describe('class-validator: libphonenumber-js is loaded by the first phone number checked', () => {
    // Its metadata is ~2 MB of heap in every service (the event contracts use class-validator); none checks a phone number.
    it('loading class-validator does not load it; isPhoneNumber loads it and judges as before', () => {
      const out = JSON.parse(inFreshProcess(`
        const loaded = () => Object.keys(require.cache).some((f) => f.includes('/node_modules/libphonenumber-js/'));
        const { isPhoneNumber } = require('class-validator');
        const before = loaded();
        const verdicts = [isPhoneNumber('+41 44 668 18 00'), isPhoneNumber('044 668 18 00', 'CH'), isPhoneNumber('+41 44', 'CH'),
          isPhoneNumber('+1 650 253 0000', 'CH'), isPhoneNumber(' +41 44 668 18 00')];
        process.stdout.write(JSON.stringify({ before, after: loaded(), verdicts }));`)) as { before: boolean; after: boolean; verdicts: boolean[] };
      expect(out).toEqual({ before: false, after: true, verdicts: [true, true, false, false, false] });
    });
  });

  describe('typeorm: a driver is loaded when a data source of its type is made', () => {
    it('loading typeorm and making a postgres data source loads no other database\'s driver', () => {
      const out = JSON.parse(inFreshProcess(`
        const drivers = () => [...new Set(Object.keys(require.cache)
          .map((f) => /\\/node_modules\\/typeorm\\/driver\\/([a-z0-9-]+)\\/[A-Za-z]+Driver\\.js$/.exec(f)?.[1]).filter(Boolean))].sort();
        const { DataSource } = require('typeorm');
        const before = drivers();
        const source = new DataSource({ type: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
        process.stdout.write(JSON.stringify({ before, after: drivers(), driver: source.driver.constructor.name }));`)) as { before: string[]; after: string[]; driver: string };
      // sqlserver and mongodb are still loaded by other typeorm modules that import them directly.
      const others = (drivers: string[]) => drivers.filter((d) => !['sqlserver', 'mongodb'].includes(d));
      expect(others(out.before)).toEqual([]);
      expect(others(out.after)).toEqual(['postgres']);
      expect(out.driver).toBe('PostgresDriver');
    });
  });

  describe('@nestjs/swagger: js-yaml is loaded by the first request for the YAML document', () => {
    // ~0.5 MB of heap in the API, which serves the document as JSON (access.e2e-spec.ts asks for the YAML too).
    it('loading the package and its decorators does not load it', () => {
      const out = inFreshProcess(`
        require('reflect-metadata');
        const { ApiProperty, SwaggerModule } = require('@nestjs/swagger');
        class Dto {}
        ApiProperty({ description: 'x' })(Dto.prototype, 'x');
        process.stdout.write(JSON.stringify({ setup: typeof SwaggerModule.setup,
          yaml: Object.keys(require.cache).some((f) => f.includes('/node_modules/js-yaml/')) }));`);
      expect(JSON.parse(out)).toEqual({ setup: 'function', yaml: false });
    });
  });

  describe('markdown-it: its classes set their fields by assignment', () => {
    // markdown-it 15.0.3 is compiled so that every class field of every token and parser state goes through a helper
    // (toPropertyKey, an `in` check and a keyed store shared by every class): 40-50 % of a render's time. Assigned in
    // the constructors of its CommonJS build (the one `require` loads) instead: the same fields in the same order
    // (docs/performance.md, forty-fourth round).
    it('the installed build has no class field set through the helper', () => {
      const dist = readFileSync(require.resolve('markdown-it', { paths: [ROOT] }), 'utf8');
      expect(dist).not.toMatch(/_defineProperty\(\s*this\b/);
    });

    it('tokens and parser states have the fields, values and order of the unpatched build', () => {
      const out = JSON.parse(inFreshProcess(`
        const MarkdownIt = require('markdown-it');
        const md = new MarkdownIt();
        process.stdout.write(JSON.stringify({
          token: Object.entries(new MarkdownIt.Token('paragraph_open', 'p', 1)),
          block: Object.keys(new MarkdownIt.StateBlock('a\\n', md, {}, [])),
          inline: Object.keys(new MarkdownIt.StateInline('a', md, {}, [])),
          core: Object.keys(new MarkdownIt.StateCore('a', md, {})),
          parser: Object.keys(md),
          html: md.render('# T\\n\\n| a | b |\\n|---|:-:|\\n| *x* | [l](https://e.org) |\\n'),
        }));`)) as Record<string, unknown>;
      // Read from markdown-it 15.0.3 without the patch.
      expect(out).toEqual({
        token: [['map', null], ['level', 0], ['children', null], ['content', ''], ['markup', ''], ['info', ''], ['block', false],
          ['hidden', false], ['type', 'paragraph_open'], ['tag', 'p'], ['attrs', null], ['nesting', 1], ['meta', null]],
        block: ['bMarks', 'eMarks', 'tShift', 'sCount', 'bsCount', 'blkIndent', 'line', 'lineMax', 'tight', 'listIndent', 'parentType',
          'level', 'Token', 'src', 'md', 'env', 'tokens'],
        inline: ['pos', 'level', 'pending', 'pendingLevel', 'cache', 'backticks', 'backticksScanned', 'skipHtmlSpecial', 'linkLevel',
          'delimiters', '_prev_delimiters', 'Token', 'src', 'env', 'md', 'tokens', 'tokens_meta', 'posMax'],
        core: ['tokens', 'inlineMode', 'Token', 'src', 'env', 'md'],
        parser: ['inline', 'block', 'core', 'renderer', 'linkify', 'utils', 'helpers', 'options'],
        html: '<h1>T</h1>\n<table>\n<thead>\n<tr>\n<th>a</th>\n<th style="text-align:center">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n'
          + '<td><em>x</em></td>\n<td style="text-align:center"><a href="https://e.org">l</a></td>\n</tr>\n</tbody>\n</table>\n',
      });
    });
  });

  describe('undici: what sending through an Agent does not use is loaded on first use', () => {
    // fetch and the other web APIs, the proxy and retry agents, the interceptors, the cache stores and the mocks were
    // ~85 modules and ~3 MB of heap in the dispatcher and in the API after its first Send test (eighteenth round).
    const unused = `const unused = () => Object.keys(require.cache)
      .filter((f) => /\\/node_modules\\/undici\\/lib\\/(web|mock|cache|interceptor)\\/|proxy-agent|retry-agent|balanced-pool|h2c-client/.test(f)).length;`;

    it('a request through an Agent loads none of it', () => {
      const out = JSON.parse(inFreshProcess(`${unused}
        const http = require('node:http');
        const server = http.createServer((req, res) => req.resume().on('end', () => res.end('ok:' + req.method))).listen(0, '127.0.0.1', async () => {
          const { Agent, request } = require('undici');
          const agent = new Agent();
          const { statusCode, body } = await request('http://127.0.0.1:' + server.address().port + '/x', { method: 'POST', body: '{}', dispatcher: agent });
          const text = await body.text();
          await agent.close(); server.close();
          process.stdout.write(JSON.stringify({ statusCode, text, unused: unused() }));
        });`)) as { statusCode: number; text: string; unused: number };
      expect(out).toEqual({ statusCode: 200, text: 'ok:POST', unused: 0 });
    });

    it('every export of the package is still there and works when first used', () => {
      const out = JSON.parse(inFreshProcess(`${unused}
        const undici = require('undici');
        const before = unused();
        (async () => {
          const fetched = await (await undici.fetch('data:text/plain,fetched')).text();
          const headers = new undici.Headers({ 'X-A': '1' }).get('x-a');
          const mock = new undici.MockAgent(); await mock.close();
          process.stdout.write(JSON.stringify({
            before, fetched, headers, after: unused() > 0, exports: Object.keys(undici).length,
            kinds: [undici.ProxyAgent, undici.RetryAgent, undici.EventSource, undici.WebSocket, undici.interceptors.retry,
              undici.cacheStores.MemoryCacheStore, undici.setCookie, undici.parseMIMEType].map((v) => typeof v),
            caches: typeof undici.caches.open,
          }));
        })();`)) as Record<string, unknown>;
      // 57: what undici 7.30.2's index exports without the patch.
      expect(out).toEqual({ before: 0, fetched: 'fetched', headers: '1', after: true, exports: 57,
        kinds: Array(8).fill('function'), caches: 'function' });
    });
  });
});
