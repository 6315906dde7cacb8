import type { Severity } from "../../../domain/result.js";
import type { RunDigest, RunFindingDigest } from "../../../nodes/experiment/digest.js";
import { buildExperiment, type Experiment } from "../../../nodes/experiment/model.js";
import type { Objective } from "../../../nodes/experiment/objective.js";
import type { MetricSummary } from "../../../nodes/experiment/reduce.js";

/** Small, hand-made runs for the cross-run detectors: each run's objective summarized directly, no curve parsing. */

export const VAL_LOSS: Objective = { metric: "val/loss", direction: "minimize", inferred: false };
export const VAL_ACC: Objective = { metric: "val/accuracy", direction: "maximize", inferred: false };

export interface RunInput {
  params?: Record<string, string | number>;
  /** The objective at its best; omitted: the run did not log the objective. */
  score?: number;
  /** Its level at the end (default: the score). */
  final?: number;
  /** σ̂ of one evaluation (default 0.01). */
  noise?: number;
  /** Step of the best value (default 10). */
  bestStep?: number;
  /** The objective's curve as [step, value] (default: the score at the best step). */
  curve?: Array<[number, number]>;
  /** The objective ended NaN (the run diverged). */
  diverged?: boolean;
  /** The training loss ended NaN. */
  trainLossDiverged?: boolean;
  findings?: RunFindingDigest[];
  errors?: Record<string, string>;
}

/** A per-run finding as a digest keeps it. */
export const runFinding = (id: string, severity: Severity, confidence = 0.8): RunFindingDigest => ({ id, title: `title of ${id}`, severity, confidence });

function summary(name: string, r: RunInput, o: Objective): MetricSummary {
  const score = r.score ?? null;
  const step = r.bestStep ?? 10;
  const curve = r.curve ?? (score === null ? [] : [[step, score] as [number, number]]);
  const best = o.direction === "minimize";
  return {
    name,
    points: 10,
    nonFinite: r.diverged ? 1 : 0,
    endsNonFinite: r.diverged ?? false,
    min: score,
    minStep: best ? step : 1,
    max: score,
    maxStep: best ? 1 : step,
    final: score === null ? null : (r.final ?? score),
    noise: r.noise ?? 0.01,
    lastStep: step,
    curve: { steps: curve.map(([s]) => s), values: curve.map(([, v]) => v) },
  };
}

export function digestOf(name: string, index: number, r: RunInput, o: Objective = VAL_LOSS): RunDigest {
  const metrics: MetricSummary[] = [];
  if (r.score !== undefined || r.diverged) metrics.push(summary(o.metric, r, o));
  if (r.trainLossDiverged) metrics.push({ ...summary("train/loss", { score: 1 }, o), endsNonFinite: true, nonFinite: 1 });
  const params = Object.fromEntries(Object.entries(r.params ?? {}).map(([k, v]) => [k, String(v)]));
  return { name, index, params, metrics, summary: null, findings: r.findings ?? [], errors: r.errors ?? {} };
}

/** The experiment of runs given by name, in that order. */
export function sweep(runs: Record<string, RunInput>, options: { baseline?: string; objective?: Objective } = {}): Experiment {
  const o = options.objective ?? VAL_LOSS;
  return buildExperiment(
    Object.entries(runs).map(([name, r], i) => digestOf(name, i, r, o)),
    o,
    options.baseline ?? null,
  );
}

/** Single runs, one per value of `param`, scored as given (noise 0.01 each unless `extra` says otherwise). */
export function grid(param: string, scores: Array<[number | string, number | undefined]>, extra: RunInput = {}): Record<string, RunInput> {
  return Object.fromEntries(scores.map(([v, score]) => [`${param}-${v}`, { ...extra, params: { ...extra.params, [param]: v }, score, diverged: score === undefined }]));
}
