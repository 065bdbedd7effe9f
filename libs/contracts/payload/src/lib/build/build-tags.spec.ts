import { ClusterInput } from '../input/result-revision.input';
import { buildTags } from './build-tags';

const cluster = (keywords: string[]): ClusterInput => ({ id: 'c', description: 'd', keywords, version: 1 });

describe('buildTags', () => {
  it('is the union of the keywords of all clusters, first occurrence order kept', () => {
    expect(buildTags([cluster(['port', 'strike']), cluster(['logistics', 'port'])])).toEqual(['port', 'strike', 'logistics']);
  });

  it('trims, drops blanks and treats case variants as one tag (first spelling wins)', () => {
    expect(buildTags([cluster([' Containers ', '', '  ']), cluster(['containers', 'CONTAINERS'])])).toEqual(['Containers']);
  });

  it('is undefined (key left out) when no cluster has keywords', () => {
    expect(buildTags([cluster([])])).toBeUndefined();
    expect(buildTags([])).toBeUndefined();
  });
});
