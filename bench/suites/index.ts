import type { BenchProfile } from "../lib/options.js";
import type { BenchResult } from "../lib/result.js";

type Run = (profile: BenchProfile) => Promise<BenchResult>;

/** One benchmark of `npm run bench`; the name is the result's name and never changes. */
export interface Suite {
  name: string;
  unit: string;
  description: string;
  run: Run;
}

/** A suite whose module is imported when it runs, so a part of the service that fails to load fails only it. */
const lazy = (name: string, unit: string, description: string, load: () => Promise<Run>): Suite => ({
  name,
  unit,
  description,
  run: async (profile) => (await load())(profile),
});

/** Every benchmark, in the order they run. */
export const SUITES: Suite[] = [
  lazy("startup", "ms", "time from process start to /readyz answering 200", async () => (await import("./startup.js")).benchStartup),
  lazy("http_overhead", "ms", "analysis latency over real HTTP next to an echo handler", async () => (await import("./http-overhead.js")).benchHttpOverhead),
  lazy("parallel_efficiency", "ms", "wall time with a fixed-delay model ÷ the critical path", async () => (await import("./parallel-efficiency.js")).benchParallelEfficiency),
  lazy("concurrent_isolation", "ms", "10 analyses at once ÷ one alone, and the 11th refused", async () => (await import("./concurrent-isolation.js")).benchConcurrentIsolation),
  lazy("framework_floor", "ms", "what the frameworks alone cost: the analysis graph with no-op nodes, one model call, the echo's HTTP", async () => (await import("./framework-floor.js")).benchFrameworkFloor),
  lazy("history_scaling", "ms", "offline analysis of large training histories", async () => (await import("./history-scaling.js")).benchHistoryScaling),
  lazy("compare_scaling", "ms", "POST /v1/compare offline: 50 to 500 runs × 2 series × 10⁴ points, time and peak RSS", async () => (await import("./compare-scaling.js")).benchCompareScaling),
  lazy("prompt_budget", "tokens", "estimated prompt tokens per agent for large histories", async () => (await import("./prompt-budget.js")).benchPromptBudget),
  lazy("grounding", "ms", "grounding pass time per model answer next to the fake model's answer time", async () => (await import("./grounding.js")).benchGrounding),
  lazy("knowledge_query", "ms", "knowledge retrieval latency, cold and cached", async () => (await import("./knowledge-query.js")).benchKnowledgeQuery),
  lazy("slow_clients", "req/s", "normal clients' throughput while 50 slow-body connections are held", async () => (await import("./slow-clients.js")).benchSlowClients),
  lazy("healthz_under_load", "ms", "/healthz p99 while ten large analyses run", async () => (await import("./healthz-under-load.js")).benchHealthzUnderLoad),
  lazy("checkpoint_scan", "GB/s", "checkpoint scan throughput and peak RSS next to numpy", async () => (await import("./checkpoint-scan.js")).benchCheckpointScan),
  lazy("dataset_stats", "s", "client dataset statistics of CSV and Parquet next to pandas", async () => (await import("./dataset-stats.js")).benchDatasetStats),
  lazy("scale_out", "analyses/s", "offline throughput with 1 and 2 replicas sharing Redis, LLM cache hit in-process and in Redis, job queue cost", async () => (await import("./scale-out.js")).benchScaleOut),
  lazy("watch_tick", "ms", "one ml-diagnose watch tick (appended read + re-analysis) on a growing 10⁴–10⁶-row log", async () => (await import("./watch-tick.js")).benchWatchTick),
  lazy("memory_soak", "× RSS after GC", "RSS after forced GC through a soak at 8 concurrent analyses, default heap and capped; largest analyses under the cap", async () => (await import("./memory-soak.js")).benchMemorySoak),
  lazy("run_stores", "s", "W&B transaction log (10⁶ rows) and MLflow SQLite store (500 runs) reads next to the wandb and mlflow packages", async () => (await import("./run-stores.js")).benchRunStores),
  lazy("client_prepare", "s", "ml-diagnose's client-side time for a 1 GB checkpoint and a 10⁶-row metrics CSV", async () => (await import("./client-prepare.js")).benchClientPrepare),
  lazy("model_file_scan", "GB/s", "ONNX, GGUF and HDF5 checkpoint scans of ~2 GB files next to numpy", async () => (await import("./model-file-scan.js")).benchModelFileScan),
];
