import { loadServiceSettings } from "../../config/env.js";
import { createKnowledgeBase } from "../../knowledge/create.js";
import { DOMAINS, type Domain, type KnowledgeDocument, QUERY_TYPES, type QueryType } from "../../knowledge/document.js";
import { KNOWN_FINDINGS } from "../../test/unit/knowledge/known-detectors.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { quantile, round } from "../lib/stats.js";

const TARGET_P99_MS = 5;
const TOP = 5;

/** A knowledge search: the query text and its optional filters, as citations and GET /v1/knowledge send them. */
interface Query {
  q: string;
  domain?: Domain;
  type?: QueryType;
}

/**
 * Distinct queries, each a cache miss: the realistic finding text of every known detector, alone and under each
 * domain and query-type filter (each filter is part of the cache key).
 */
function makeQueries(n: number): Query[] {
  const texts = Object.values(KNOWN_FINDINGS);
  const filters: Array<Omit<Query, "q">> = [{}, ...DOMAINS.map((domain) => ({ domain })), ...QUERY_TYPES.map((type) => ({ type }))];
  return filters.flatMap((f) => texts.map((q) => ({ q, ...f }))).slice(0, n);
}

/** The naive approach: score every document by how many query words its text contains, keep the top few. */
function naiveScan(docs: readonly KnowledgeDocument[], texts: ReadonlyMap<string, string>, query: Query): string[] {
  const words = query.q.toLowerCase().split(/\s+/);
  return docs
    .filter((d) => (!query.domain || d.domain === query.domain) && (!query.type || d.query_type === query.type))
    .map((d) => ({ id: d.id, score: words.reduce((n, w) => n + (texts.get(d.id)!.includes(w) ? 1 : 0), 0) }))
    .filter((d) => d.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, TOP)
    .map((d) => d.id);
}

async function timeEach(queries: readonly Query[], fn: (q: Query) => unknown): Promise<number[]> {
  const out: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    await fn(q);
    out.push(performance.now() - started);
  }
  return out;
}

/** knowledge_query: retrieval latency through the knowledge base, cold (cache miss) and cached, next to a naive scan. */
export async function benchKnowledgeQuery(profile: BenchProfile): Promise<BenchResult> {
  const build = () => createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });
  const queries = makeQueries(profile.knowledgeQueries);
  const kb = build();
  const docs = kb.documents;
  const texts = new Map(docs.map((d) => [d.id, `${d.title} ${d.tags.join(" ")} ${d.body}`.toLowerCase()]));
  // Warm the code (JIT) on a throw-away instance, so "cold" means a cache miss and nothing else.
  const warm = build();
  await timeEach(queries, (q) => warm.search({ ...q, limit: TOP }));
  await timeEach(queries, (q) => naiveScan(docs, texts, q));

  const cold = await timeEach(queries, (q) => kb.search({ ...q, limit: TOP }));
  const cached = await timeEach(queries, (q) => kb.search({ ...q, limit: TOP }));
  const naive = await timeEach(queries, (q) => naiveScan(docs, texts, q));
  const p = (xs: number[], q: number) => quantile(xs, q);
  const coldP99 = p(cold, 0.99);
  const stats = kb.stats();
  return {
    name: "knowledge_query",
    value: coldP99,
    unit: "ms",
    baseline: p(naive, 0.99),
    ratio: ratioOf(coldP99, p(naive, 0.99)),
    target: `p99 cold < ${TARGET_P99_MS} ms`,
    met: coldP99 < TARGET_P99_MS,
    description: `p99 latency of a knowledge search (the path of citations and GET /v1/knowledge: ${stats.hybrid ? "hybrid" : "full-text"} ranking over ${docs.length} documents, top ${TOP}) for ${queries.length} distinct queries (the finding text of each known detector, alone and under each domain and query-type filter), each a cache miss (cold)`,
    baselineDescription: "a naive scan counting query words in every document's text",
    rows: [
      { metric: "cold (cache miss), p50", value: p(cold, 0.5), unit: "ms", baseline: p(naive, 0.5), ratio: ratioOf(p(cold, 0.5), p(naive, 0.5)) },
      { metric: "cold (cache miss), p99", value: coldP99, unit: "ms", baseline: p(naive, 0.99), ratio: ratioOf(coldP99, p(naive, 0.99)), target: `< ${TARGET_P99_MS} ms`, met: coldP99 < TARGET_P99_MS },
      { metric: "cached (same queries again), p50", value: p(cached, 0.5), unit: "ms", baseline: p(cold, 0.5), ratio: ratioOf(p(cached, 0.5), p(cold, 0.5)) },
      { metric: "cached (same queries again), p99", value: p(cached, 0.99), unit: "ms", baseline: coldP99, ratio: ratioOf(p(cached, 0.99), coldP99) },
    ],
    detail: {
      queries: queries.length,
      documents: docs.length,
      cache: stats.cache,
      cold_ms: { p50: round(p(cold, 0.5)), p99: round(coldP99), max: round(Math.max(...cold)) },
      cached_ms: { p50: round(p(cached, 0.5)), p99: round(p(cached, 0.99)), max: round(Math.max(...cached)) },
      naive_ms: { p50: round(p(naive, 0.5)), p99: round(p(naive, 0.99)) },
    },
  };
}
