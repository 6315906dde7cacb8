import { loadServiceSettings } from "../../config/env.js";
import { createKnowledgeBase } from "../../knowledge/create.js";
import type { KnowledgeDocument } from "../../knowledge/document.js";
import { seededRandom } from "../data/training-history.js";
import type { BenchProfile } from "../lib/options.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { quantile, round } from "../lib/stats.js";

const TARGET_P99_MS = 5;
const TOP = 5;

/** Distinct finding-like queries: 4–16 words drawn (seeded) from the corpus's own vocabulary, plus a number. */
function makeQueries(docs: readonly KnowledgeDocument[], n: number, seed: number): string[] {
  const vocabulary = [...new Set(docs.flatMap((d) => `${d.title} ${d.tags.join(" ")} ${d.body}`.toLowerCase().match(/[a-z]{3,}/g) ?? []))];
  const random = seededRandom(seed);
  const pick = () => vocabulary[Math.floor(random() * vocabulary.length)]!;
  const queries = new Set<string>();
  while (queries.size < n) {
    const words = Array.from({ length: 4 + Math.floor(random() * 13) }, pick);
    words.splice(Math.floor(random() * words.length), 0, (random() * 100).toFixed(1));
    queries.add(words.join(" "));
  }
  return [...queries];
}

/** The naive approach: score every document by how many query words its text contains, keep the top few. */
function naiveScan(docs: readonly { id: string; text: string }[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/);
  return docs
    .map((d) => ({ id: d.id, score: words.reduce((n, w) => n + (d.text.includes(w) ? 1 : 0), 0) }))
    .filter((d) => d.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, TOP)
    .map((d) => d.id);
}

async function timeEach(queries: readonly string[], fn: (q: string) => unknown): Promise<number[]> {
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
  const kb = createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });
  const docs = kb.documents;
  const search = (q: string) => kb.search({ q, limit: TOP });
  const naiveDocs = docs.map((d) => ({ id: d.id, text: `${d.title} ${d.tags.join(" ")} ${d.body}`.toLowerCase() }));
  // Warm the code (JIT) on queries of their own, so "cold" means a cache miss and nothing else.
  const warmup = makeQueries(docs, 200, 1);
  await timeEach(warmup, search);
  await timeEach(warmup, (q) => naiveScan(naiveDocs, q));

  const queries = makeQueries(docs, profile.knowledgeQueries, 2);
  const cold = await timeEach(queries, search);
  const cached = await timeEach(queries, search);
  const naive = await timeEach(queries, (q) => naiveScan(naiveDocs, q));
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
    description: `p99 latency of a knowledge search (the path of citations and GET /v1/knowledge: ${stats.hybrid ? "hybrid" : "full-text"} ranking over ${docs.length} documents, top ${TOP}) for ${queries.length} distinct finding-like queries of 4–16 words, each a cache miss (cold)`,
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
