import { ArticleInput, ClusterInput } from '../input/result-revision.input';
import { PayloadArticle, PayloadCluster } from '../types/payload.types';
import { assertInteger } from './number-guards';
import { toUtcTimestamp } from './timestamp';

/** `articles`: source articles in input order, built key by key so input key order never leaks into the body. */
export function buildArticles(articles: readonly ArticleInput[]): PayloadArticle[] {
  return articles.map((article, index) => ({
    id: article.id,
    title: article.title,
    url: article.url,
    source: article.source,
    published_at:
      article.publishedAt === null ? null : toUtcTimestamp(article.publishedAt, `articles[${index}].publishedAt`),
    lang: article.lang,
  }));
}

/** `clusters`: element 0 is the cluster of the result; its description is never copied into `lead`. */
export function buildClusters(clusters: readonly ClusterInput[]): PayloadCluster[] {
  return clusters.map((cluster, index) => ({
    id: cluster.id,
    description: cluster.description,
    keywords: [...cluster.keywords],
    version: assertInteger(cluster.version, `clusters[${index}].version`, 1),
  }));
}
