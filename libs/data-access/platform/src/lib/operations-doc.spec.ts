import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../../../../..');

/** Every configuration variable a service validates is documented in docs/operations.md. */
describe('docs/operations.md', () => {
  const doc = readFileSync(resolve(root, 'docs/operations.md'), 'utf8');
  const configFiles = [
    resolve(root, 'libs/data-access/platform/src/lib/base.config.ts'),
    ...readdirSync(resolve(root, 'apps')).map((app) => resolve(root, 'apps', app, 'src/app', `${app}.config.ts`)),
  ];
  const variables = configFiles.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^\s+(?:override\s+)?([A-Z][A-Z0-9_]+)[!?]?\s*[:=]/gm)].map((m) => m[1]));

  it('finds the configuration variables of every service', () => {
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'ADMIN_TOKEN', 'RETRY_DELAYS_MS', 'SMTP_URL', 'RETRY_POLL_MS']));
  });

  it.each([...new Set(variables)])('documents %s', (name) => {
    expect(doc).toContain(`\`${name}\``);
  });
});
