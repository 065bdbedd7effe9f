const KEY = 'owd.console.token';

/**
 * The API token lives in sessionStorage: it survives a reload of the tab, is gone when the tab closes,
 * is never shared with other tabs, and never appears in a URL.
 */
export const tokenStore = {
  get(): string | null {
    return sessionStorage.getItem(KEY);
  },
  set(token: string): void {
    sessionStorage.setItem(KEY, token);
  },
  clear(): void {
    sessionStorage.removeItem(KEY);
  },
};
