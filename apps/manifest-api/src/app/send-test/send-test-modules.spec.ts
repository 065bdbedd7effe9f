import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../../..');

/** What only a Send test could need: the HTTP client, and the payload's renderers (which its sample does without). */
const SEND_TEST_PACKAGES = ['undici', 'markdown-it', 'sanitize-html', 'transliteration'];

/**
 * Loads the libraries the API imports these from, in a Node.js process of its own (a fresh module cache), runs `then`,
 * and tells which of SEND_TEST_PACKAGES are loaded before and after it.
 */
function loadedPackages(then: string): { before: string[]; after: string[] } {
  const script = `
    const packages = ${JSON.stringify(SEND_TEST_PACKAGES)};
    const loaded = () => packages.filter((p) => Object.keys(require.cache).some((f) => f.includes('/node_modules/' + p + '/')));
    const payload = require('./libs/contracts/payload/src/index.ts');
    const sample = require('./apps/manifest-api/src/app/send-test/sample-result.ts');
    const guard = require('./libs/util/address-guard/src/index.ts');
    const delivery = require('./libs/util/http-delivery/src/index.ts');
    const before = loaded();
    (async () => { ${then} })().then(() => process.stdout.write(JSON.stringify({ before, after: loaded() })));`;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.base.json' },
  });
  return JSON.parse(out) as { before: string[]; after: string[] };
}

describe('what a Send test needs is loaded by the first one, not with the API (docs/performance.md, "A pod\'s memory")', () => {
  it('the libraries load none of it', () => {
    expect(loadedPackages('').before).toEqual([]);
  });

  it('building the Send test\'s sample payload loads none of the renderers (docs/performance.md, eighteenth round)', () => {
    const built = loadedPackages(`
      const { payload: built } = payload.buildPayload(sample.sampleInput('test_1', { name: 'Blog', sourceLang: 'en' }, new Date()));
      if (built.locales.en.body_html !== sample.SAMPLE_CONTENT.bodyHtml) throw new Error('built ' + JSON.stringify(built.locales));`);
    expect(built.after).toEqual([]);
  });

  it('rendering a body loads markdown-it, and sanitize-html only for a body outside its allowlist; sending through a guarded agent loads undici', () => {
    const rendered = loadedPackages(`
      const body = payload.renderMarkdown('# Title\\n\\nFirst *paragraph*.');
      if (body.firstParagraph !== 'First paragraph.' || !body.html.includes('<em>paragraph</em>')) throw new Error('rendered ' + JSON.stringify(body));
      if (payload.deriveSlug('Ünïcode Tïtle') !== 'unicode-title') throw new Error('slug ' + payload.deriveSlug('Ünïcode Tïtle'));`);
    // A body inside the sanitizer's allowlist is written without it (libs/contracts/payload, markdown.renderer.ts).
    expect(rendered.after.sort()).toEqual(['markdown-it', 'transliteration']);

    const sanitized = loadedPackages(`
      const body = payload.renderMarkdown('A [relative](/link).');
      if (body.html !== '<p>A <a href="/link">relative</a>.</p>\\n') throw new Error('rendered ' + JSON.stringify(body));`);
    expect(sanitized.after.sort()).toEqual(['markdown-it', 'sanitize-html']);

    const sent = loadedPackages(`
      const agent = guard.createGuardedAgent();
      const result = await delivery.sendAttempt({ url: 'http://127.0.0.1:1/', body: '{}', headers: {}, dispatcher: agent, timeoutMs: 2000 });
      await agent.close();
      // The guard, through undici's connector, still refuses loopback before any connection is made.
      if (result.outcome !== 'refused' || result.errorClass !== 'address_refused') throw new Error('sent ' + JSON.stringify(result));`);
    expect(sent.after).toEqual(['undici']);
  });
});
