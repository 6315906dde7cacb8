import { curveOf } from "../training/curves.js";
import { lttbIndices } from "../training/downsample.js";
import type { MetricSeries, TrainingRun } from "../training/model.js";
import { baseName } from "../training/names.js";
import { countNonFinite, levelNoise, mean, noiseSigma } from "../training/stats.js";

/**
 * What the cross-run detectors keep of one metric of one run once the run is analysed: a handful of numbers and
 * a curve of at most CURVE_POINTS points, whatever the length of the history (memory stays bounded per run).
 */
export interface MetricSummary {
  /** Normalized name without aggregation, e.g. "val/loss". */
  name: string;
  /** Finite and non-finite points logged. */
  points: number;
  nonFinite: number;
  /** The last logged value is NaN or ±Infinity: the run ended diverged. */
  endsNonFinite: boolean;
  /** Smallest and largest finite values, and the steps where they were logged. */
  min: number | null;
  minStep: number | null;
  max: number | null;
  maxStep: number | null;
  /** Level at the end: mean of the last TAIL_SHARE of the evaluations (at least one, at most MAX_TAIL). */
  final: number | null;
  /** σ̂ of one evaluation around the curve's level over its last half (training/stats.ts levelNoise). */
  noise: number;
  lastStep: number | null;
  /** The curve for charts and "when did it reach that level": steps and values, at most CURVE_POINTS. */
  curve: { steps: number[]; values: number[] };
}

export const CURVE_POINTS = 64;
const TAIL_SHARE = 0.1;
const MAX_TAIL = 10;
/** Series kept per run: the validation and test quantities, the training loss, and the requested objective. */
const MAX_SERIES = 12;
const KEPT_SPLITS = new Set(["val", "test"]);

/** Share of the curve whose noise is measured: the end, where scores are read (early losses are larger and noisier). */
const NOISE_SHARE = 0.5;
const MIN_NOISE_POINTS = 6;

/** σ̂ of one evaluation over the last half of a curve (all of it when short). */
function tailNoise(values: Float64Array): number {
  const n = values.length;
  if (n < 3) return 0;
  const tail = n >= 2 * MIN_NOISE_POINTS ? values.subarray(Math.floor(n * (1 - NOISE_SHARE))) : values;
  return levelNoise(tail, noiseSigma(tail));
}

/** Reduces one series to its summary. */
export function summarizeSeries(series: MetricSeries): MetricSummary {
  const c = curveOf(series, "coarse");
  const n = c.values.length;
  let min = -1;
  let max = -1;
  for (let i = 0; i < n; i++) {
    if (min < 0 || c.values[i]! < c.values[min]!) min = i;
    if (max < 0 || c.values[i]! > c.values[max]!) max = i;
  }
  const tail = Math.max(1, Math.min(MAX_TAIL, Math.ceil(TAIL_SHARE * n)));
  const keep = lttbIndices(c.steps, c.values, CURVE_POINTS);
  return {
    name: baseName(series.name),
    points: series.values.length,
    nonFinite: countNonFinite(series.values),
    endsNonFinite: series.values.length > 0 && !Number.isFinite(series.values[series.values.length - 1]!),
    min: n ? c.values[min]! : null,
    minStep: n ? c.steps[min]! : null,
    max: n ? c.values[max]! : null,
    maxStep: n ? c.steps[max]! : null,
    final: n ? mean(c.values, n - tail, n) : null,
    noise: tailNoise(c.values),
    lastStep: series.steps.length ? series.steps[series.steps.length - 1]! : null,
    curve: n ? { steps: keep.map((i) => c.steps[i]!), values: keep.map((i) => c.values[i]!) } : { steps: [], values: [] },
  };
}

/**
 * The metrics of a parsed run the comparison needs, reduced: every validation and test quantity, the training
 * loss (divergence), and the series named `wanted` (the requested objective), one summary per normalized name
 * (the epoch aggregate preferred, as the trend detectors do).
 */
export function summarizeRun(run: TrainingRun, wanted: string | null): MetricSummary[] {
  const byName = new Map<string, MetricSeries>();
  for (const s of run.series.values()) {
    const name = baseName(s.name);
    const keep = KEPT_SPLITS.has(s.split) || name === "train/loss" || name === wanted;
    if (!keep || s.values.length === 0) continue;
    const seen = byName.get(name);
    if (!seen || s.aggregation === "epoch" || (seen.aggregation !== "epoch" && s.aggregation === null)) byName.set(name, s);
  }
  const names = [...byName.keys()].sort((a, b) => Number(b === wanted) - Number(a === wanted) || a.localeCompare(b));
  return names.slice(0, MAX_SERIES).map((name) => summarizeSeries(byName.get(name)!));
}
