import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Tests read and write docs/ at the workspace root; find it by nx.json rather than counting "../".
function findRepoRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const REPO_ROOT = findRepoRoot(__dirname);
export const SCHEMA_PATH = join(REPO_ROOT, 'docs/schemas/payload-v5.schema.json');
export const EXAMPLES_DIR = join(REPO_ROOT, 'docs/examples');
