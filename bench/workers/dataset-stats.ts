// Worker for dataset_stats: computes the client's dataset statistics of a train and a test file in a process of
// its own, so the peak RSS it reports (DuckDB's native memory included) is the computation's. argv: <train>
// <test>. Sends one StatsRun over IPC: wall time, time per step (the profile), peak RSS, a few figures to check.
import { computeDatasetArtifacts } from "../../client/dataset/index.js";
import { BENCH_TARGET } from "../data/tables.js";
import { since } from "../lib/stats.js";

export interface StatsRun {
  ms: number;
  /** Wall time of each step of computeDatasetArtifacts, in order. */
  stepsMs: Record<string, number>;
  idleRssBytes: number;
  peakRssBytes: number;
  rows: number;
  duplicates: number;
  overlap: number | null;
  estimatedColumns: string[];
}

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const [train, test] = process.argv.slice(2);
if (!train || !test) throw new Error("usage: dataset-stats.ts <train> <test>");

const idleRssBytes = peakRss();
const stepsMs: Record<string, number> = {};
const startedAt: Record<string, number> = {};
const started = performance.now();
const result = await computeDatasetArtifacts({
  data: train,
  test,
  target: BENCH_TARGET,
  onProgress: (step, done) => {
    if (done === 0) startedAt[step] = performance.now();
    if (done === 1 && startedAt[step] !== undefined) stepsMs[step.replace(/ \/.*\//, " ")] = since(startedAt[step]);
  },
});
const ms = since(started);
const s = result.statistics;
const run: StatsRun = {
  ms,
  stepsMs,
  idleRssBytes,
  peakRssBytes: peakRss(),
  rows: s.num_rows,
  duplicates: s.duplicates.count,
  overlap: s.train_test_overlap?.count ?? null,
  estimatedColumns: Object.entries(s.columns).filter(([, c]) => c.unique_estimated).map(([n]) => n),
};
process.send!(run);
