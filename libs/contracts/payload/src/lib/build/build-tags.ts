import { ClusterInput } from '../input/result-revision.input';
import { dedupe } from './dedupe';

/**
 * `tags`: keywords of all clusters in cluster order, trimmed, blanks dropped,
 * repeated case-insensitively (first spelling wins). Undefined when there are none, so the key is left out.
 */
export function buildTags(clusters: readonly ClusterInput[]): string[] | undefined {
  const keywords = clusters.flatMap((cluster) => cluster.keywords.map((keyword) => keyword.trim()));
  const tags = dedupe(
    keywords.filter((keyword) => keyword !== ''),
    (keyword) => keyword.toLowerCase(),
  );
  return tags.length > 0 ? tags : undefined;
}
