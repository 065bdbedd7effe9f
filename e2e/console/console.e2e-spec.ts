import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { verify } from '@owd/signer';
import { createTestDatabase, createTestTopics, REPO_ROOT, startReceiver, waitFor, type TestDatabase, type TestReceiver } from '@owd/testing';
import { ApiClient } from '../system/support/api-client';
import { resultTrail } from '../system/support/result-trail';
import { Stack } from '../system/support/stack';

const SECRET = 'whsec_console_test_0123456789';
const ARTIFACTS = resolve(REPO_ROOT, 'test-artifacts/console');
/** How long a UI state may take to appear: the services run as processes on a machine that may be busy. */
const UI_TIMEOUT_MS = 30_000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers

function article(title: string): Json {
  return { mode: 'article', executedAt: '2026-11-21T10:00:00+00:00', title, lead: 'A lead.', body: 'Body text.', aiModel: 'm', tokensUsed: 1, cost: 0.001 };
}

const RECEIVER_FIELDS = [
  { key: 'desk', label: 'Desk', type: 'text', required: true },
  { key: 'category', label: 'Category', type: 'enum', options: [{ value: 'eco', label: 'Economy' }, { value: 'pol', label: 'Politics' }] },
  { key: 'regions', label: 'Regions', type: 'enum', multiple: true, options: [{ value: 'eu', label: 'Europe' }, { value: 'as', label: 'Asia' }] },
  { key: 'breaking', label: 'Breaking news', type: 'bool' },
];

/**
 * The web console in a real browser: Debian's Chromium driven by playwright-core, against the built services
 * (manifest-api serving /console, payload-builder, dispatcher) on real Kafka and PostgreSQL, with loopback
 * receivers. Build dist first (npm test does). Screenshots land in test-artifacts/console.
 */
describe('the web console', () => {
  let db: TestDatabase;
  let stack: Stack;
  let api: ApiClient;
  let browser: Browser;
  let token: string;
  let foreignGoalId: string;
  const receivers: TestReceiver[] = [];
  const pageErrors: string[] = [];
  const requestedUrls: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    db = await createTestDatabase();
    const { prefix } = await createTestTopics();
    stack = new Stack(db.url, prefix, { ATTEMPT_TIMEOUT_MS: '3000', KAFKA_SESSION_TIMEOUT_MS: '6000' });
    // Retries by hand go straight to the dispatcher; the scheduler and the notifier play no part here.
    for (const service of ['manifest-api', 'payload-builder', 'dispatcher'] as const) await stack.start(service);
    ({ token, api } = await stack.newWorkspace('Newsroom'));
    const other = (await stack.newWorkspace('Other newsroom')).api;
    foreignGoalId = (await other.call('POST', '/goals', { name: 'Their goal', sourceLang: 'en' }))['id'];
    browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stopAll();
    await Promise.all(receivers.map((r) => r.close()));
    await db?.drop();
  });

  /** A fresh browser context (no storage), with page errors, CSP violations and every requested URL collected. */
  async function openConsole(path = '/console/'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB', timezoneId: 'UTC' });
    const page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('request', (req) => requestedUrls.push(req.url()));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) pageErrors.push(msg.text());
    });
    await page.goto(`${stack.url('manifest-api')}${path}`);
    return page;
  }

  async function signIn(page: Page): Promise<void> {
    await page.getByRole('textbox', { name: 'API token' }).fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('who').waitFor();
  }

  async function signedIn(hash = '#/goals'): Promise<Page> {
    const page = await openConsole(`/console/${hash}`);
    await signIn(page);
    return page;
  }

  /** A tab of the page (Action step, Results, Contract; Status, Delivery), by the start of its label. */
  async function openTab(page: Page, label: string): Promise<void> {
    await page.locator('nav.tabs').getByRole('link', { name: new RegExp(`^${label}`) }).click();
  }

  async function shot(page: Page, name: string): Promise<void> {
    // From the top: the sticky bar would otherwise be drawn where the page happens to be scrolled.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  /** The page is no wider than the viewport, and every table that is wider sits in a horizontal scroll container that is not. */
  async function expectNoCutTable(page: Page, what: string): Promise<void> {
    // A string: this file is compiled without the DOM's types.
    const layout = await page.evaluate(`(() => {
      const root = document.documentElement;
      return {
        page: { scroll: root.scrollWidth, client: root.clientWidth },
        tables: [...document.querySelectorAll('table')].map((table) => {
          const wrap = table.parentElement;
          const rect = wrap.getBoundingClientRect();
          return {
            fits: table.scrollWidth <= wrap.clientWidth || getComputedStyle(wrap).overflowX === 'auto',
            inside: rect.left >= 0 && rect.right <= root.clientWidth + 0.5,
          };
        }),
      };
    })()`) as { page: { scroll: number; client: number }; tables: { fits: boolean; inside: boolean }[] };
    expect({ what, ...layout.page, overflow: layout.page.scroll > layout.page.client }).toEqual({ what, ...layout.page, overflow: false });
    expect(layout.tables.length).toBeGreaterThan(0);
    expect(layout.tables).toEqual(layout.tables.map(() => ({ fits: true, inside: true })));
  }

  async function receiver(handler?: Parameters<typeof startReceiver>[0]): Promise<TestReceiver> {
    const r = await startReceiver(handler);
    receivers.push(r);
    return r;
  }

  /** A production goal whose receiver established a contract with a required `desk` field. */
  async function productionGoal(name: string, target: TestReceiver): Promise<string> {
    const goal = await api.call('POST', '/goals', { name, sourceLang: 'en', recipientUrl: `${target.url}/hook` });
    await api.call('PATCH', `/goals/${goal['id']}`, { deliveryMode: 'production' });
    await api.call('PUT', `/goals/${goal['id']}/target-manifest`, { source: 'receiver', sections: ['content', 'faq'], blocks: ['paragraph', 'heading'], fields: RECEIVER_FIELDS });
    return goal['id'];
  }

  afterEach(() => {
    expect(pageErrors).toEqual([]);
    expect(requestedUrls.filter((url) => url.includes(token))).toEqual([]);
    pageErrors.length = 0;
    requestedUrls.length = 0;
  });

  it('is served with a strict Content-Security-Policy and lets only an API token in, kept out of URLs, until sign-out', async () => {
    const page = await openConsole('/console');
    const response = await page.reload();
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(page.url()).toBe(`${stack.url('manifest-api')}/console/`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await page.locator('script:not([src])').count()).toBe(0);
    await shot(page, 'sign-in');

    const tokenBox = page.getByRole('textbox', { name: 'API token' });
    await tokenBox.fill(`owd_${'A'.repeat(43)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This token is unknown or has been revoked.').waitFor();
    await tokenBox.fill(stack.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This is the admin token.', { exact: false }).waitFor();

    await signIn(page);
    await expect(page.getByTestId('who').textContent()).resolves.toContain('Newsroom');
    await page.getByText('No goals yet').waitFor();
    await shot(page, 'goals-empty');
    expect(await page.evaluate(() => sessionStorage.getItem('owd.console.token'))).toBe(token);
    expect(page.url()).not.toContain(token);

    await page.reload();
    await page.getByText('No goals yet').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.context().close();
  });

  it('creates a goal and shows only its own workspace: another workspace’s goal is neither listed nor reachable', async () => {
    const page = await signedIn();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Economy desk');
    await page.getByRole('button', { name: 'Create goal' }).click();
    await page.getByRole('heading', { name: 'Economy desk', level: 1 }).waitFor();
    await page.getByTestId('rollout').getByText('1 of 7 steps done', { exact: false }).waitFor();

    await page.getByRole('link', { name: 'Goals', exact: true }).click();
    await page.getByRole('link', { name: 'Economy desk' }).waitFor();
    await expect(page.getByText('Their goal').count()).resolves.toBe(0);
    await shot(page, 'goals');

    await page.goto(`${stack.url('manifest-api')}/console/#/goals/${foreignGoalId}`);
    await page.getByText('belongs to another workspace', { exact: false }).waitFor();
    await page.context().close();
  });

  it('saves the recipient URL and the secret, and Send test shows what was sent and what came back, or why nothing was', async () => {
    const target = await receiver((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
    const goal = await api.call('POST', '/goals', { name: 'Markets', sourceLang: 'en' });
    const page = await signedIn(`#/goals/${goal['id']}`);
    const url = page.getByRole('textbox', { name: 'Recipient URL' });

    // A typed, unsaved URL can be tested; it cannot be verified.
    await url.fill(`${target.url}/hook`);
    await page.getByRole('button', { name: 'Send test' }).click();
    const report = page.getByTestId('send-test-report');
    await report.getByText('This URL is not saved').waitFor();
    await report.locator('pre', { hasText: '"received": true' }).waitFor();
    expect(await report.getAttribute('data-outcome')).toBe('delivered');
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0].headers['authorization']).toBeUndefined();

    await page.getByRole('button', { name: 'Save URL' }).click();
    await page.getByText('Recipient URL saved').waitFor();
    await page.getByTestId('rollout').getByText('URL saved; no secret (optional).').waitFor();
    await expect(api.call('GET', `/goals/${goal['id']}`)).resolves.toMatchObject({ recipientUrl: `${target.url}/hook` });

    await page.getByRole('textbox', { name: 'Secret' }).fill(SECRET);
    await page.getByRole('button', { name: 'Set secret' }).click();
    await page.getByText(/^Secret set on /).waitFor();
    await expect(page.getByRole('button', { name: 'Change' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Remove' }).isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toContain(SECRET);

    // The saved URL: the answer verifies it, and Send immediately becomes available.
    await expect(page.getByRole('checkbox', { name: /Send immediately/ }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByTestId('send-test-report').getByText('Verified', { exact: true }).waitFor();
    const sent = target.requests[1];
    expect(verify(SECRET, sent.headers, sent.body)).toEqual({ ok: true });
    const shown = page.getByTestId('send-test-report');
    await expect(shown.getByText('Bearer [secret]').count()).resolves.toBe(1);
    await expect(shown.getByText('200 OK').first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: /Send immediately/ }).isEnabled()).resolves.toBe(true);
    await page.getByTestId('rollout').getByText('3 of 7 steps done', { exact: false }).waitFor();
    await shot(page, 'send-test');

    // A cloud metadata address is refused before anything is sent, and the report says by which rule.
    await url.fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.locator('[data-testid="send-test-report"][data-outcome="refused"]').waitFor();
    await page.getByText('rule: cloud-metadata', { exact: false }).waitFor();
    expect(target.requests).toHaveLength(2);
    await shot(page, 'send-test-refused');

    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove secret' }).click();
    await page.getByText('No secret: deliveries carry neither Authorization nor X-SH-Signature.').waitFor();
    await expect(api.call('GET', `/goals/${goal['id']}`)).resolves.toMatchObject({ secret: { set: false } });
    await page.context().close();
  });

  it('renders the receiver’s fields as defaults, takes a missing required value on the Delivery tab, and follows an approved result to delivered', async () => {
    const target = await receiver();
    const goalId = await productionGoal('Economy desk', target);
    const result = await api.call('POST', `/goals/${goalId}/results`, article('Grain prices fall'));
    const page = await signedIn(`#/goals/${goalId}`);

    // Defaults in the Action step: enum as a select, enum multiple as options to tick, bool as yes/no, text as a box.
    await page.getByRole('combobox', { name: 'Category' }).selectOption('eco');
    await page.getByRole('checkbox', { name: 'Asia' }).check();
    await page.getByRole('combobox', { name: 'Breaking news' }).selectOption('false');
    await page.getByRole('button', { name: 'Save defaults' }).click();
    await page.getByText('Field defaults saved').waitFor();
    await expect(api.call('GET', `/goals/${goalId}`)).resolves.toMatchObject({ fieldDefaults: { category: 'eco', regions: ['as'], breaking: false } });

    await openTab(page, 'Contract');
    await page.getByTestId('contract').getByText('Receiver', { exact: true }).waitFor();
    await page.getByText('Capabilities reported').waitFor();
    await shot(page, 'contract');

    await openTab(page, 'Results');
    await page.getByRole('link', { name: 'Grain prices fall' }).click();
    await page.getByText('Waiting for receiver field values').waitFor();
    await openTab(page, 'Delivery');
    await page.getByText('Required by the receiver: a result without a value is not sent.').waitFor();
    await page.getByText('Default: Economy').waitFor();
    await shot(page, 'delivery-tab');
    await page.getByRole('textbox', { name: 'Desk' }).fill('Markets');
    await page.getByRole('button', { name: 'Save values' }).click();
    await page.locator('.badge', { hasText: 'Awaiting approval' }).first().waitFor();

    await openTab(page, 'Status');
    await page.getByRole('button', { name: 'Approve revision 1' }).click();
    await page.getByTestId('state').getByText('The receiver answered with 2xx.').waitFor();
    const attempts = page.getByTestId('attempts');
    await attempts.locator('tr[data-outcome="delivered"]').waitFor();
    await expect(attempts.getByText('204 No Content').count()).resolves.toBe(1);
    await page.getByTestId('revisions').getByText('Revision 1').waitFor();
    await shot(page, 'result-delivered');

    expect(target.requests).toHaveLength(1);
    const payload = JSON.parse(target.requests[0].body.toString('utf8')) as Json;
    expect(payload).toMatchObject({ result_id: result['id'], fields: { desk: 'Markets', category: 'eco' } });
    await page.getByRole('link', { name: 'Economy desk' }).click();
    await openTab(page, 'Action step');
    await page.getByTestId('rollout').getByText('1 result delivered.').waitFor();
    await page.context().close();
  });

  it('shows a failed delivery with its error and retries it by hand under the same X-SH-Delivery', async () => {
    const target = await receiver((_req, res) => target.requests.length === 1
      ? res.writeHead(400, { 'content-type': 'text/html', 'x-request-id': 'rq-7' }).end('<b id="injected">unknown</b> desk')
      : res.writeHead(204).end());
    const goalId = await productionGoal('Politics desk', target);
    const result = await api.call('POST', `/goals/${goalId}/results`, article('Parliament votes'));
    await api.call('PUT', `/results/${result['id']}/fields`, { values: { desk: 'Politics' } });
    await waitFor(async () => (await api.call('GET', `/results/${result['id']}`))['state']['status'] === 'awaiting_approval', { what: 'awaiting approval', timeoutMs: UI_TIMEOUT_MS });
    await api.call('POST', `/results/${result['id']}/approve`, {});

    const page = await signedIn(`#/results/${result['id']}`);
    await page.getByTestId('state').getByText('Delivery failed').waitFor();
    const attempts = page.getByTestId('attempts');
    await attempts.locator('tr[data-outcome="permanent"]').getByRole('cell', { name: '400 Bad Request', exact: true }).waitFor();
    // The receiver's answer, as text: its markup is shown, never rendered.
    const answer = attempts.locator('tr[data-outcome="permanent"]').getByTestId('answer');
    await answer.locator('summary').click();
    await expect(answer.getByLabel('Response body').textContent()).resolves.toBe('<b id="injected">unknown</b> desk');
    await expect(answer.getByLabel('Response headers').textContent()).resolves.toContain('x-request-id: rq-7');
    await expect(page.locator('#injected').count()).resolves.toBe(0);
    await shot(page, 'result-failed');

    await page.getByRole('button', { name: 'Retry delivery' }).click();
    await attempts.locator('tr[data-outcome="delivered"]').getByText('retried by hand').waitFor();
    await page.getByTestId('state').getByText('The receiver answered with 2xx.').waitFor();
    await expect(page.getByRole('button', { name: 'Retry delivery' }).count()).resolves.toBe(0);
    await shot(page, 'result-retried');

    // 390 px wide (a phone): no table widens the page; each scrolls inside its own container.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoCutTable(page, 'attempts');
    await shot(page, 'result-narrow');
    await page.goto(`${stack.url('manifest-api')}/console/#/goals`);
    await page.getByRole('link', { name: 'Politics desk' }).waitFor();
    await expectNoCutTable(page, 'goals');
    await shot(page, 'goals-narrow');

    expect(target.requests).toHaveLength(2);
    expect(target.requests[1].headers['x-sh-delivery']).toBe(target.requests[0].headers['x-sh-delivery']);
    expect(target.requests[1].body.equals(target.requests[0].body)).toBe(true);
    await page.context().close();
  });
  it('lists failed deliveries across goals and recovers every failed one of a goal at once, with its count and progress, once', async () => {
    let healthy = false;
    const target = await receiver((_req, res) => (healthy ? res.writeHead(204).end() : res.writeHead(422).end('desk unknown')));
    const goalId = await productionGoal('Sports desk', target);
    const ids: string[] = [];
    for (const title of ['Cup final', 'Transfer window']) {
      const result = await api.call('POST', `/goals/${goalId}/results`, article(title));
      await api.call('PUT', `/results/${result['id']}/fields`, { values: { desk: 'Sports' } });
      ids.push(result['id']);
    }
    const seen = new Map<string, unknown>();
    const reach = (id: string, status: string) =>
      waitFor(async () => {
        const state = (await api.call('GET', `/results/${id}`))['state'];
        seen.set(id, state);
        return state['status'] === status;
      }, { what: `${id} ${status}`, timeoutMs: UI_TIMEOUT_MS })
        .catch(async (err: Error) => {
          throw new Error(`${err.message}; last seen ${JSON.stringify(seen.get(id))}\n${await resultTrail(db.url, id)}`);
        });
    await Promise.all(ids.map((id) => reach(id, 'awaiting_approval')));
    for (const id of ids) await api.call('POST', `/results/${id}/approve`, {});
    await Promise.all(ids.map((id) => reach(id, 'failed')));
    healthy = true;

    const page = await signedIn('#/failed');
    await page.getByRole('link', { name: 'Failed deliveries' }).waitFor();
    await page.getByLabel('Goal').selectOption({ label: 'Sports desk' });
    await page.getByRole('button', { name: 'Show' }).click();
    const table = page.getByTestId('failed-deliveries');
    for (const id of ids) await table.locator(`tr[data-result="${id}"]`).getByText('client_error').waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(2);
    await shot(page, 'failed-deliveries');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoCutTable(page, 'failed deliveries');

    await page.getByRole('button', { name: 'Retry all matching' }).click();
    await page.getByText('Retrying 2 deliveries').waitFor();
    await page.getByTestId('recovery').getByText('2 delivered').waitFor();
    await page.getByText('No failed deliveries').waitFor();
    await shot(page, 'failed-recovered');
    // Twice is safe: nothing is still failed, so nothing is sent again.
    await page.getByRole('button', { name: 'Retry all matching' }).click();
    await page.getByText('Nothing to retry: no matching delivery is still failed').waitFor();
    expect(target.requests).toHaveLength(4);
    for (const id of ids) {
      const sent = target.requests.filter((r) => r.headers['idempotency-key'] === id);
      expect(sent).toHaveLength(2);
      expect(sent[1].body.equals(sent[0].body)).toBe(true);
    }
    await page.context().close();
  });
});
