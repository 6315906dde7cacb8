import type { BenchProfile } from "../lib/options.js";
import type { BenchResult } from "../lib/result.js";

/** One benchmark of `npm run bench`; the name is the result's name and never changes. */
export interface Suite {
  name: string;
  unit: string;
  description: string;
  run(profile: BenchProfile): Promise<BenchResult>;
}

// Each suite is imported when it runs, so a part of the service that fails to load fails its benchmark alone.
/** Every benchmark, in the order they run. */
export const SUITES: Suite[] = [
  {
    name: "startup",
    unit: "ms",
    description: "time from process start to /readyz answering 200",
    run: async (p) => (await import("./startup.js")).benchStartup(p),
  },
  {
    name: "http_overhead",
    unit: "ms",
    description: "analysis latency over real HTTP next to an echo handler",
    run: async (p) => (await import("./http-overhead.js")).benchHttpOverhead(p),
  },
  {
    name: "parallel_efficiency",
    unit: "ms",
    description: "wall time with a fixed-delay model ÷ the critical path",
    run: async (p) => (await import("./parallel-efficiency.js")).benchParallelEfficiency(p),
  },
  {
    name: "concurrent_isolation",
    unit: "ms",
    description: "10 analyses at once ÷ one alone, and the 11th refused",
    run: async (p) => (await import("./concurrent-isolation.js")).benchConcurrentIsolation(p),
  },
  {
    name: "history_scaling",
    unit: "ms",
    description: "offline analysis of large training histories",
    run: async (p) => (await import("./history-scaling.js")).benchHistoryScaling(p),
  },
  {
    name: "prompt_budget",
    unit: "tokens",
    description: "estimated prompt tokens per agent for large histories",
    run: async (p) => (await import("./prompt-budget.js")).benchPromptBudget(p),
  },
  {
    name: "knowledge_query",
    unit: "ms",
    description: "knowledge retrieval latency, cold and cached",
    run: async (p) => (await import("./knowledge-query.js")).benchKnowledgeQuery(p),
  },
  {
    name: "checkpoint_scan",
    unit: "GB/s",
    description: "checkpoint scan throughput and peak RSS next to numpy",
    run: async (p) => (await import("./checkpoint-scan.js")).benchCheckpointScan(p),
  },
];
