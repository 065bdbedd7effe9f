import type { Api } from './api';
import type { Session } from './api-types';

/** What a page gets: the API, who is signed in, and a signal that fires when the reader leaves the page. */
export interface PageContext {
  api: Api;
  session: Session;
  /** Aborted when the page is left: stops polling, and answers that arrive late are not rendered. */
  signal: AbortSignal;
  root: HTMLElement;
}

/**
 * Calls `tick` every `intervalMs` until the page is left or `tick` returns false. Each tick waits for the
 * previous one, so a slow API never gets a pile of requests.
 */
export function poll(signal: AbortSignal, intervalMs: number, tick: () => Promise<boolean>): void {
  const next = (): void => {
    if (signal.aborted) return;
    const timer = window.setTimeout(() => {
      signal.removeEventListener('abort', cancel);
      tick().then((go) => (go ? next() : undefined), () => next());
    }, intervalMs);
    const cancel = (): void => window.clearTimeout(timer);
    signal.addEventListener('abort', cancel, { once: true });
  };
  next();
}

/** The document title: where the reader is, then the product. */
export function setTitle(...parts: string[]): void {
  document.title = [...parts, 'Delivery console'].join(' · ');
}
