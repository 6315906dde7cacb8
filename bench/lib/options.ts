import { parseArgs } from "node:util";
import { sizeLabel } from "./sizes.js";

/** How much work each benchmark does; `--quick` trades precision for a run under two minutes. */
export interface BenchProfile {
  mode: "full" | "quick";
  /** Service starts timed for `startup` (each also times a bare server). */
  startups: number;
  /** autocannon seconds per (endpoint, concurrency) pair. */
  loadSeconds: number;
  /** Analyses timed for `parallel_efficiency`. */
  llmAnalyses: number;
  /** Rounds of 10 concurrent analyses for `concurrent_isolation`. */
  isolationRounds: number;
  /** Fixed delay of every fake LLM answer (ms). */
  llmDelayMs: number;
  /** Training-history sizes (points per metric) for `history_scaling` and `prompt_budget`. */
  historySizes: number[];
  /** Timed analyses per history size (after one warm-up). */
  historyRepeats: number;
  /** Knowledge queries per phase (cold, cached); at most the distinct (finding text, filter) pairs there are. */
  knowledgeQueries: number;
  /** Size of the generated safetensors file and timed scans of it. */
  checkpointBytes: number;
  checkpointScans: number;
  /** Slow-body connections held open, and seconds of normal-client load with and without them (`slow_clients`). */
  slowClients: number;
  slowClientSeconds: number;
  /** Large analyses sent at once and the size of each body, while /healthz is polled (`healthz_under_load`). */
  largeBodies: number;
  largeBodyBytes: number;
  /** Rows of the generated train table of `dataset_stats` (21 columns; the test table has a tenth). */
  datasetRows: number;
  /** Timed rounds of each `framework_floor` measure (after one untimed round). */
  floorRounds: number;
}

const FULL: BenchProfile = {
  mode: "full",
  startups: 5,
  loadSeconds: 10,
  llmAnalyses: 5,
  isolationRounds: 3,
  llmDelayMs: 300,
  historySizes: [1e4, 1e5, 1e6],
  historyRepeats: 3,
  knowledgeQueries: 1000,
  checkpointBytes: 1024 ** 3,
  checkpointScans: 3,
  slowClients: 50,
  slowClientSeconds: 10,
  largeBodies: 10,
  largeBodyBytes: 40 * 1024 ** 2,
  datasetRows: 10_000_000,
  floorRounds: 5,
};

const QUICK: BenchProfile = {
  mode: "quick",
  startups: 1,
  loadSeconds: 2,
  llmAnalyses: 2,
  isolationRounds: 1,
  llmDelayMs: 300,
  historySizes: [1e4, 1e5],
  historyRepeats: 1,
  knowledgeQueries: 300,
  checkpointBytes: 256 * 1024 ** 2,
  checkpointScans: 1,
  slowClients: 50,
  slowClientSeconds: 3,
  largeBodies: 10,
  largeBodyBytes: 10 * 1024 ** 2,
  datasetRows: 1_000_000,
  floorRounds: 2,
};

export interface BenchOptions {
  profile: BenchProfile;
  /** Benchmarks to run (all when empty). */
  only: string[];
  /**
   * Update the tracked record (BENCHMARKS.md, bench/results.json) instead of the git-ignored bench/out/: asked
   * for deliberately, and only by a full run of every benchmark, so a partial or quick run never replaces it.
   */
  write: boolean;
}

/** Parses `npm run bench -- [--quick] [--only a,b] [--write]`; throws when --write is asked of the quick profile. */
export function parseBenchArgs(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string", default: "" },
      write: { type: "boolean", default: false },
    },
    strict: true,
  });
  const only = values.only.split(",").map((s) => s.trim()).filter(Boolean);
  if (values.write && values.quick) {
    throw new Error("--write updates BENCHMARKS.md and bench/results.json with the full profile only: drop --quick");
  }
  return { profile: values.quick ? QUICK : FULL, only, write: values.write };
}

/** One line saying what this profile does, printed and written into BENCHMARKS.md. */
export function describeProfile(p: BenchProfile): string {
  const mb = (b: number) => `${Math.round(b / 1024 ** 2)} MiB`;
  const parts = [
    `startup ×${p.startups}`,
    `load ${p.loadSeconds} s per run`,
    `LLM delay ${p.llmDelayMs} ms, ${p.llmAnalyses} timed analyses, ${p.isolationRounds} round(s) of 10 at once`,
    `histories of ${p.historySizes.map(sizeLabel).join(", ")} points × 6 metrics, ${p.historyRepeats} timed runs each`,
    `${p.knowledgeQueries} knowledge queries per phase`,
    `checkpoint ${mb(p.checkpointBytes)} ×${p.checkpointScans}`,
    `${p.slowClients} slow-body connections, ${p.slowClientSeconds} s of load with and without`,
    `${p.largeBodies} bodies of ${mb(p.largeBodyBytes)} at once`,
    `dataset of ${sizeLabel(p.datasetRows)} rows × 21 columns`,
  ];
  return `${p.mode} profile: ${parts.join("; ")}`;
}
