import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';

export const CONSOLE_PATH = '/console';

/**
 * Only the console's own files may run or style the page, it may talk only to this origin, and nothing may
 * frame it. form-action 'none': every form is handled by script, so a form can never put a token in a URL.
 */
export const CONSOLE_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

function consoleHeaders(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  const path = (req as IncomingMessage & { originalUrl?: string }).originalUrl?.split('?')[0];
  if (path === CONSOLE_PATH) {
    res.statusCode = 301;
    res.setHeader('Location', `${CONSOLE_PATH}/`);
    res.end();
    return;
  }
  next();
}

/**
 * Serves the web console (static files built from apps/manifest-api/console) at /console/ when `dir` holds
 * a build; returns whether it does. The console uses the /api routes with the API token like any client.
 */
export function serveConsole(app: NestExpressApplication, dir: string): boolean {
  if (!existsSync(join(dir, 'index.html'))) return false;
  app.use(CONSOLE_PATH, consoleHeaders);
  app.useStaticAssets(dir, { prefix: CONSOLE_PATH, index: 'index.html', redirect: false, fallthrough: true });
  return true;
}
