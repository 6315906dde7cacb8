/**
 * Knowledge-base figures for `npm run bench`: corpus load + index build time, and query latency p50/p99 for
 * uncached ("cold") and cached queries, over the finding texts of every known detector.
 * Usage: npx tsx scripts/measure-knowledge.ts [--json]
 */
import { loadavg } from "node:os";
import { loadServiceSettings } from "../config/env.js";
import { createKnowledgeBase } from "../knowledge/create.js";
import { FullTextIndex } from "../knowledge/full-text.js";
import { loadCorpus } from "../knowledge/load-corpus.js";
import { KNOWN_FINDINGS } from "../test/unit/knowledge/known-detectors.js";

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { n: sorted.length, p50_ms: round(percentile(sorted, 50)), p99_ms: round(percentile(sorted, 99)), max_ms: round(sorted.at(-1)!) };
}

async function main() {
  let t = performance.now();
  const docs = loadCorpus();
  const loadMs = performance.now() - t;
  t = performance.now();
  new FullTextIndex(docs);
  const indexMs = performance.now() - t;
  t = performance.now();
  const kb = createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });
  const startupMs = performance.now() - t;

  // Warm the JIT on a throw-away instance, so "cold" means "not cached", not "first code path ever run".
  const texts = Object.values(KNOWN_FINDINGS);
  const warm = createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });
  for (const q of texts) await warm.search({ q: `${q} warm-up` });

  // Cold: every query misses the cache (finding texts, plain and with a domain filter).
  const queries = [...texts.map((q) => ({ q })), ...texts.map((q) => ({ q, domain: "training" as const }))];
  const cold: number[] = [];
  for (const query of queries) {
    const s = performance.now();
    await kb.search(query);
    cold.push(performance.now() - s);
  }
  const cached: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const query of queries) {
      const s = performance.now();
      await kb.search(query);
      cached.push(performance.now() - s);
    }
  }
  const report = {
    documents: docs.length,
    corpus_load_ms: Math.round(loadMs * 10) / 10,
    index_build_ms: Math.round(indexMs * 10) / 10,
    startup_ms: Math.round(startupMs * 10) / 10,
    query_cold: summary(cold),
    query_cached: summary(cached),
    cache: kb.stats().cache,
    // Latency tails on a shared machine are scheduler noise when this exceeds the core count.
    load_average_1m: Math.round(loadavg()[0]! * 100) / 100,
  };
  if (process.argv.includes("--json")) console.log(JSON.stringify(report));
  else {
    console.log(`knowledge: ${report.documents} documents; corpus load ${report.corpus_load_ms} ms, index build ${report.index_build_ms} ms, start-up ${report.startup_ms} ms`);
    console.log(`  query cold   p50 ${report.query_cold.p50_ms} ms  p99 ${report.query_cold.p99_ms} ms  (n=${report.query_cold.n}, target p99 < 5 ms)`);
    console.log(`  query cached p50 ${report.query_cached.p50_ms} ms  p99 ${report.query_cached.p99_ms} ms  (n=${report.query_cached.n})`);
    console.log(`  machine load average (1 min) ${report.load_average_1m}`);
  }
}

await main();
