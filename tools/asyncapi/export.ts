// Writes docs/asyncapi.yaml from the event classes (libs/contracts/events); a unit test fails while it is stale.
// YAML 1.1 rules when writing, so timestamps and yes/no stay quoted strings for YAML 1.1 readers too.
//   node node_modules/tsx/dist/cli.mjs --tsconfig tsconfig.base.json tools/asyncapi/export.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { buildAsyncApiDocument } from '@owd/events';

const target = join(__dirname, '../../docs/asyncapi.yaml');
const header = [
  '# Generated from libs/contracts/events by tools/asyncapi/export.ts; do not edit by hand. Regenerate with:',
  '#   node node_modules/tsx/dist/cli.mjs --tsconfig tsconfig.base.json tools/asyncapi/export.ts',
  '',
].join('\n');

writeFileSync(target, header + stringify(buildAsyncApiDocument(), { aliasDuplicateObjects: false, lineWidth: 120, version: '1.1' }));
console.log(`asyncapi: wrote ${target}`);
