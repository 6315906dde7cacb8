import type { Finding } from "../../domain/result.js";
import { curveOf, nonFiniteCount } from "./curves.js";
import { lttbIndices } from "./downsample.js";
import type { MetricSeries, TrainingRun } from "./model.js";
import { round } from "./detectors/detector.js";
import { argMinMax } from "./stats.js";

/** Bounds that keep the digest the same size whatever the history length. */
const MAX_SERIES = 16;
const POINTS_PER_SERIES = 16;
const MAX_PARAMS = 40;
const MAX_PARAM_TEXT = 120;
const MAX_LOG_EXAMPLES = 8;
const MAX_FINDINGS = 30;

/** Series people read first: losses and accuracies on train/val, then the optimizer signals. */
function priority(s: MetricSeries): number {
  const quantity = ["loss", "accuracy", "f1", "auc", "lr", "grad_norm", "loss_scale"].indexOf(s.quantity);
  const split = ["train", "val", "test", "none"].indexOf(s.split);
  return (quantity < 0 ? 10 : quantity) * 10 + split + (s.aggregation === "step" ? 5 : 0);
}

function seriesDigest(s: MetricSeries) {
  const c = curveOf(s, "fine");
  const nonfinite = nonFiniteCount(s);
  const point = (i: number) => [s.steps[i]!, round(s.values[i]!)] as const;
  const [lo, hi] = argMinMax(c.values);
  const shape = c.values.length > 0 ? lttbIndices(c.steps, c.values, POINTS_PER_SERIES).map((i) => [c.steps[i]!, round(c.values[i]!)]) : [];
  return {
    name: s.name,
    logged_as: s.sources.slice(0, 3),
    points: s.values.length,
    nonfinite,
    first: point(0),
    last: point(s.values.length - 1),
    min: c.values.length > 0 ? [c.steps[lo]!, round(c.values[lo]!)] : null,
    max: c.values.length > 0 ? [c.steps[hi]!, round(c.values[hi]!)] : null,
    noise: round(curveOf(s, "coarse").noise),
    shape,
  };
}

/** A compact digest of the run for the language model: bounded in size whatever the history length. */
export function trainingDigest(run: TrainingRun, findings: readonly Finding[]) {
  const series = [...run.series.values()].sort((a, b) => priority(a) - priority(b) || a.name.localeCompare(b.name));
  return {
    format: run.format,
    records: run.meta.records,
    series_count: series.length,
    series: series.slice(0, MAX_SERIES).map(seriesDigest),
    other_series: series.slice(MAX_SERIES, MAX_SERIES + 20).map((s) => s.name),
    params: Object.fromEntries(Object.entries(run.params).slice(0, MAX_PARAMS).map(([k, v]) => [k, v.slice(0, MAX_PARAM_TEXT)])),
    logs: { lines: run.logs.lines, events: run.logs.counts, examples: run.logs.events.slice(0, MAX_LOG_EXAMPLES).map((e) => `${e.kind}: ${e.text.slice(0, 200)}`) },
    run: { best_checkpoint: run.meta.bestCheckpoint, best_step: run.meta.bestStep, max_steps: run.meta.maxSteps, val_samples: run.meta.valSamples },
    findings: findings.slice(0, MAX_FINDINGS).map((f) => ({ id: f.id, severity: f.severity, confidence: f.confidence, title: f.title })),
  };
}
