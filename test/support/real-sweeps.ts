import { readFileSync } from "node:fs";

/** One run of a committed real sweep (test/fixtures/sweeps/, written by scripts/fixtures/sweeps/generate.sh). */
export interface SweepRun {
  name: string;
  params: Record<string, string | number>;
  metrics: Record<string, Array<number | "NaN">>;
}

/** The XGBoost max_depth sweep (3 seeds, no subsampling: bit-identical) or the torch learning-rate sweep. */
export function realSweep(name: "xgboost-depth" | "torch-lr"): SweepRun[] {
  return JSON.parse(readFileSync(new URL(`../fixtures/sweeps/${name}.json`, import.meta.url), "utf8")) as SweepRun[];
}

/** The sweep as inline runs of POST /v1/compare. */
export function inlineRuns(runs: readonly SweepRun[]) {
  return runs.map((r) => ({ name: r.name, params: r.params, training_artifacts: { metrics: r.metrics } }));
}
