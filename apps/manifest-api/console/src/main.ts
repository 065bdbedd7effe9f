import { Api, ApiError } from './api';
import type { Session } from './api-types';
import { h, mount } from './dom';
import type { PageContext } from './page';
import { goalPage } from './pages/goal';
import { failedPage } from './pages/failed';
import { goalsPage } from './pages/goals';
import { loginPage } from './pages/login';
import { resultPage } from './pages/result';
import { parseRoute, type Route } from './router';
import { tokenStore } from './session';
import { button, emptyState, loadFailure, loading } from './ui';

/** The console: a sign-in screen, or the signed-in shell whose main area follows the URL fragment. */
class ConsoleApp {
  private page: AbortController | null = null;
  private session: { api: Api; session: Session; main: HTMLElement } | null = null;

  constructor(private readonly root: HTMLElement) {
    window.addEventListener('hashchange', () => this.route());
  }

  async start(): Promise<void> {
    const token = tokenStore.get();
    if (!token) return this.signIn();
    mount(this.root, loading('Signing in…'));
    try {
      this.open(token, await new Api(token).me());
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        tokenStore.clear();
        return this.signIn('The saved token is no longer valid. Sign in again.');
      }
      mount(this.root, h('main', { class: 'main' }, loadFailure(error, () => void this.start())));
    }
  }

  private signIn(reason?: string): void {
    this.leavePage();
    this.session = null;
    loginPage(this.root, (token, session) => {
      tokenStore.set(token);
      this.open(token, session);
    }, reason);
  }

  private open(token: string, session: Session): void {
    const api = new Api(token, () => {
      tokenStore.clear();
      this.signIn('The API token was revoked or is no longer valid.');
    });
    const main = h('main', { class: 'main', id: 'main' });
    mount(this.root,
      h('a', { class: 'skip-link', href: '#main' }, 'Skip to content'),
      h('header', { class: 'topbar' },
        h('a', { class: 'brand', href: '#/goals' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }), 'Delivery console'),
        // The brand leads to the goals; the cross-goal view of failures sits beside it.
        h('nav', { class: 'topnav', 'aria-label': 'Sections' }, h('a', { href: '#/failed' }, 'Failed deliveries')),
        h('div', { class: 'topbar-right' },
          h('span', { class: 'who', 'data-testid': 'who' },
            h('strong', {}, session.workspace.name), h('span', { class: 'muted' }, ` · ${session.token.name} (${session.token.prefix}…)`)),
          button('Sign out', { kind: 'ghost', onClick: () => this.signOut() }))),
      main);
    this.session = { api, session, main };
    this.route();
  }

  private signOut(): void {
    tokenStore.clear();
    this.signIn();
  }

  private leavePage(): void {
    this.page?.abort();
    this.page = null;
  }

  private route(): void {
    if (!this.session) return;
    this.leavePage();
    const controller = new AbortController();
    this.page = controller;
    const ctx: PageContext = { api: this.session.api, session: this.session.session, signal: controller.signal, root: this.session.main };
    const route = parseRoute(location.hash);
    mount(ctx.root, loading());
    window.scrollTo(0, 0);
    this.render(ctx, route).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      mount(ctx.root, loadFailure(error, () => this.route()));
    });
  }

  private async render(ctx: PageContext, route: Route): Promise<void> {
    switch (route.page) {
      case 'goals':
        return goalsPage(ctx);
      case 'failed':
        return failedPage(ctx);
      case 'goal':
        return goalPage(ctx, route.goalId, route.tab);
      case 'result':
        return resultPage(ctx, route.resultId, route.tab);
      case 'not-found':
        mount(ctx.root, h('div', { class: 'page-state' }, emptyState({
          icon: 'inbox', title: 'There is no such page', text: 'The address does not lead anywhere in the console.',
          action: h('a', { class: 'btn btn-secondary', href: '#/goals' }, 'Back to goals'),
        })));
    }
  }
}

const root = document.getElementById('app');
if (root) void new ConsoleApp(root).start();
