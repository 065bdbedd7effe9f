import { ApiError } from '../api';
import type { Goal } from '../api-types';
import { h, mount } from '../dom';
import { formatDateTime } from '../format';
import { badge, button, card, field, icon, notice, showFieldErrors, whileBusy } from '../ui';
import type { GoalPage } from './goal';
import { sendTestReport } from './send-test-report';

/** The recipient URL with Save and Send test, and the report of the latest Send test. */
export function recipientCard(page: GoalPage): HTMLElement {
  const { goal } = page;
  const url = h('input', {
    type: 'url', name: 'recipientUrl', value: page.draftUrl ?? goal.recipientUrl ?? '', placeholder: 'https://cms.example.com/hooks/owd',
    inputmode: 'url', autocomplete: 'off', spellcheck: 'false', class: 'mono',
    on: { input: () => (page.draftUrl = url.value === (goal.recipientUrl ?? '') ? null : url.value) },
  });
  const status = h('div', {});
  const saveButton = button('Save URL', { kind: 'primary', type: 'submit' });
  const testButton = button([icon('send'), 'Send test'], { kind: 'secondary' });
  const form = h('form', { class: 'form', novalidate: true },
    field({
      label: 'Recipient URL', name: 'recipientUrl', control: url,
      hint: 'Must be publicly reachable: loopback, private, link-local, reserved and cloud-metadata addresses are refused.',
    }),
    h('div', { class: 'form-actions' }, saveButton, testButton, verificationLine(goal)),
    status);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void whileBusy(saveButton, async () => {
      const value = url.value.trim();
      const draft = page.draftUrl;
      page.draftUrl = null;
      const saved = await page.save({ recipientUrl: value === '' ? null : value }, status, value === '' ? 'Recipient URL removed' : 'Recipient URL saved');
      // Not saved: the typed URL stays in the box.
      if (!saved) page.draftUrl = draft;
    });
  });
  testButton.addEventListener('click', () => void whileBusy(testButton, async () => {
    const typed = url.value.trim();
    // The saved URL is tested unless the box holds another one: Send test also takes a URL that is not saved yet.
    const target = typed === '' || typed === goal.recipientUrl ? undefined : typed;
    mount(status);
    try {
      const report = await page.ctx.api.sendTest(goal.id, target);
      page.sendTest = { report, url: target ?? goal.recipientUrl ?? '' };
      // A test of the saved URL verifies it or, failing, clears its verification and Send immediately.
      if (target === undefined) page.goal = await page.ctx.api.goal(goal.id);
      page.render();
    } catch (error) {
      const messages = error instanceof ApiError ? error.fieldErrors() : new Map<string, string>();
      const url = messages.get('url');
      if (url) messages.set('recipientUrl', url);
      messages.delete('url');
      showFieldErrors(form, messages);
      mount(status, notice('danger', 'Send test not started', error instanceof Error ? error.message : String(error)));
    }
  }));
  return card({ title: 'Recipient', subtitle: 'Where results are POSTed. Send test sends one sample event over the same route as a real delivery.' },
    form,
    page.sendTest ? sendTestReport(page.sendTest.report, page.sendTest.url, goal.recipientUrl) : null);
}

function verificationLine(goal: Goal): HTMLElement {
  if (!goal.recipientUrl) return h('span', { class: 'muted small' }, 'No URL saved yet.');
  return goal.verification.verified
    ? h('span', { class: 'inline-status' }, badge('Verified', 'success'), ` Saved URL, by Send test ${formatDateTime(goal.verification.verifiedAt)}`)
    : h('span', { class: 'inline-status' }, badge('Not verified', 'warning'), ' Send a test to the saved URL.');
}
