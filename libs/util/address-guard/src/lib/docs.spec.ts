import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METADATA_HOSTNAMES } from './cloud-metadata';
import { REFUSED_RANGES } from './ranges';
import { REFUSAL_RULES } from './rules';

// Operators read the page, not the code: keep every rule, range and metadata name documented.
const page = readFileSync(join(__dirname, '../../../../../docs/address-restriction.md'), 'utf8');

describe('docs/address-restriction.md', () => {
  it.each([...REFUSAL_RULES])('documents the rule %s', (rule) => {
    expect(page).toContain(`\`${rule}\``);
  });

  it.each(REFUSED_RANGES.map((r) => r.cidr))('documents the range %s', (cidr) => {
    expect(page).toContain(`\`${cidr}\``);
  });

  it.each([...METADATA_HOSTNAMES])('documents the metadata hostname %s', (hostname) => {
    expect(page).toContain(`\`${hostname}\``);
  });
});
