import { Api, ApiError } from '../api';
import type { Session } from '../api-types';
import { h, mount } from '../dom';
import { setTitle } from '../page';
import { button, field, notice, whileBusy } from '../ui';

/** Why a token was not accepted, in the reader's terms. */
export function signInFailure(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 401) return 'This token is unknown or has been revoked.';
  if (error.status === 403) return 'This is the admin token. The console needs an API token of a workspace (it starts with owd_).';
  if (error.status === 429) return 'Too many requests with this token. Wait a moment and try again.';
  return error.message;
}

/** The sign-in screen: an API token, checked against GET /api/me before it is kept. */
export function loginPage(root: HTMLElement, onSignedIn: (token: string, session: Session) => void, reason?: string): void {
  setTitle('Sign in');
  const token = h('input', { type: 'password', name: 'token', autocomplete: 'off', spellcheck: 'false', required: true, class: 'mono', placeholder: 'owd_…' });
  const status = h('div', {}, reason ? notice('warning', 'Signed out', reason) : null);
  const submit = button('Sign in', { kind: 'primary', type: 'submit' });
  const form = h('form', { class: 'form', novalidate: true },
    field({ label: 'API token', name: 'token', control: token, hint: 'An API token of your workspace. It is kept in this browser tab only and sent as a Bearer header, never in a URL.' }),
    status,
    h('div', { class: 'form-actions' }, submit));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = token.value.trim();
    if (value === '') {
      mount(status, notice('danger', 'Enter a token', 'Paste the API token of your workspace.'));
      return;
    }
    void whileBusy(submit, async () => {
      mount(status);
      try {
        const session = await new Api(value).me();
        onSignedIn(value, session);
      } catch (error) {
        mount(status, notice('danger', 'Not signed in', signInFailure(error)));
        token.select();
      }
    });
  });
  mount(root, h('div', { class: 'login' },
    h('div', { class: 'login-card' },
      h('div', { class: 'brand brand-large' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }), 'Delivery console'),
      h('h1', {}, 'Sign in'),
      h('p', { class: 'lede' }, 'Deliver your results to your own receiver: set it up, test it, and follow every delivery.'),
      form)));
  token.focus();
}
