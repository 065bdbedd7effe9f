import { ApiError } from './api';
import { h, uid, type Child, type ClassValue } from './dom';
import type { Tone } from './format';

const SVG = 'http://www.w3.org/2000/svg';
const ICONS = {
  check: 'M5 12.5l4.2 4.2L19 7',
  cross: 'M6 6l12 12M18 6L6 18',
  dot: 'M12 12m-3.5 0a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8a7 7 0 0 1 14 0',
  alert: 'M12 8v5m0 3.5v.5M10.3 3.9L2.5 17.5A2 2 0 0 0 4.2 20.5h15.6a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  send: 'M4 12l16-8-6 16-2.5-6.5L4 12z',
  inbox: 'M3 13l3-8h12l3 8M3 13v6h18v-6M3 13h5l1.5 2.5h5L16 13h5',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  refresh: 'M20 11a8 8 0 1 0-2.3 5.7M20 5v6h-6',
  lock: 'M6 11h12v9H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3',
} as const;
export type IconName = keyof typeof ICONS;

export function icon(name: IconName, className = 'icon'): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.appendChild(path);
  return svg;
}

export function badge(text: string, tone: Tone = 'neutral', extra: ClassValue = ''): HTMLSpanElement {
  return h('span', { class: ['badge', `badge-${tone}`, typeof extra === 'string' ? extra : extra.filter(Boolean).join(' ')] }, text);
}

export interface CardOptions {
  title: string;
  subtitle?: Child;
  actions?: Child;
  class?: string;
  testid?: string;
}

export function card(options: CardOptions, ...body: Child[]): HTMLElement {
  const titleId = uid('card');
  return h('section', { class: ['card', options.class], 'aria-labelledby': titleId, 'data-testid': options.testid },
    h('header', { class: 'card-head' },
      h('div', {}, h('h2', { id: titleId }, options.title), options.subtitle ? h('p', { class: 'card-sub' }, options.subtitle) : null),
      options.actions ? h('div', { class: 'card-actions' }, options.actions) : null),
    h('div', { class: 'card-body' }, body));
}

export function notice(tone: Tone, title: string, ...body: Child[]): HTMLElement {
  const glyph: IconName = tone === 'success' ? 'check' : tone === 'danger' || tone === 'warning' ? 'alert' : 'dot';
  return h('div', { class: ['notice', `notice-${tone}`], role: tone === 'danger' ? 'alert' : 'status' },
    icon(glyph, 'icon notice-icon'),
    h('div', { class: 'notice-text' }, h('strong', {}, title), body.length ? h('div', {}, body) : null));
}

export function emptyState(options: { icon: IconName; title: string; text: Child; action?: Child }): HTMLElement {
  return h('div', { class: 'empty' },
    h('div', { class: 'empty-icon' }, icon(options.icon)),
    h('h3', {}, options.title), h('p', {}, options.text), options.action ?? null);
}

export interface FieldOptions {
  label: string;
  /** Matches `errors[].field` of a problem answer, so the message lands beside the control. */
  name: string;
  control: HTMLElement;
  hint?: Child;
  tag?: Child;
}

/** A labelled control with its hint and a slot for its error message. */
export function field(options: FieldOptions): HTMLElement {
  const id = options.control.id || uid('f');
  options.control.id = id;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  options.control.setAttribute('aria-describedby', options.hint ? `${hintId} ${errorId}` : errorId);
  return h('div', { class: 'field', 'data-field': options.name },
    h('label', { for: id }, options.label, options.tag ? h('span', { class: 'field-tag' }, options.tag) : null),
    options.control,
    options.hint ? h('p', { class: 'hint', id: hintId }, options.hint) : null,
    h('p', { class: 'field-error', id: errorId, hidden: true }));
}

/** Puts each message beside the field it names; returns the messages no field on the page took. */
export function showFieldErrors(scope: Element, errors: Map<string, string>): string[] {
  clearFieldErrors(scope);
  const unplaced: string[] = [];
  for (const [name, message] of errors) {
    const wrapper = scope.querySelector(`[data-field="${CSS.escape(name)}"]`);
    const slot = wrapper?.querySelector<HTMLElement>('.field-error');
    if (!wrapper || !slot) {
      unplaced.push(`${name}: ${message}`);
      continue;
    }
    wrapper.classList.add('has-error');
    slot.textContent = message;
    slot.hidden = false;
    wrapper.querySelector('input, select, textarea')?.setAttribute('aria-invalid', 'true');
  }
  return unplaced;
}

export function clearFieldErrors(scope: Element): void {
  for (const wrapper of scope.querySelectorAll('.field.has-error')) {
    wrapper.classList.remove('has-error');
    const slot = wrapper.querySelector<HTMLElement>('.field-error');
    if (slot) {
      slot.textContent = '';
      slot.hidden = true;
    }
    wrapper.querySelector('[aria-invalid]')?.removeAttribute('aria-invalid');
  }
}

export type ButtonKind = 'primary' | 'secondary' | 'danger' | 'ghost';

export function button(label: Child, options: { kind?: ButtonKind; type?: 'button' | 'submit'; onClick?: () => void; disabled?: boolean; title?: string } = {}): HTMLButtonElement {
  return h('button', {
    type: options.type ?? 'button', class: ['btn', `btn-${options.kind ?? 'secondary'}`], disabled: options.disabled ?? false,
    title: options.title, on: options.onClick ? { click: options.onClick } : {},
  }, label);
}

/** Runs `task` with the button disabled and marked busy; the page stays usable otherwise. */
export async function whileBusy(control: HTMLButtonElement, task: () => Promise<void>): Promise<void> {
  control.disabled = true;
  control.setAttribute('aria-busy', 'true');
  try {
    await task();
  } finally {
    control.disabled = false;
    control.removeAttribute('aria-busy');
  }
}

export function tabs(label: string, items: { label: string; href: string; active: boolean; count?: number }[]): HTMLElement {
  return h('nav', { class: 'tabs', 'aria-label': label },
    items.map((t) => h('a', { href: t.href, class: ['tab', t.active && 'active'], 'aria-current': t.active ? 'page' : undefined },
      t.label, t.count !== undefined ? h('span', { class: 'tab-count' }, t.count) : null)));
}

export function dl(pairs: [Child, Child][], className = 'facts'): HTMLDListElement {
  return h('dl', { class: className }, pairs.map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value))));
}

export function loading(text = 'Loading…'): HTMLElement {
  return h('div', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), text);
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A whole page that could not be loaded: what happened, and a way to try again. */
export function loadFailure(error: unknown, retry: () => void): HTMLElement {
  const notFound = error instanceof ApiError && error.status === 404;
  return h('div', { class: 'page-state' },
    emptyState({
      icon: notFound ? 'inbox' : 'alert',
      title: notFound ? 'Not found' : 'This page could not be loaded',
      text: notFound ? `${messageOf(error)} It may have been deleted, or it belongs to another workspace.` : messageOf(error),
      action: notFound ? h('a', { class: 'btn btn-secondary', href: '#/goals' }, 'Back to goals') : button('Try again', { kind: 'primary', onClick: retry }),
    }));
}

export function toast(message: string, tone: Tone = 'success'): void {
  const region = document.getElementById('toasts');
  if (!region) return;
  const item = h('div', { class: ['toast', `toast-${tone}`] }, icon(tone === 'success' ? 'check' : 'alert'), message);
  region.appendChild(item);
  window.setTimeout(() => item.remove(), 4000);
}
