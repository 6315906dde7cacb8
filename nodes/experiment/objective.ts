import type { ObjectiveRequest } from "../../artifacts/compare-request.js";
import { type Direction, directionOf } from "./direction.js";
import { baseName, normalizeMetricName } from "../training/names.js";
import type { MetricSummary } from "./reduce.js";

/** The metric runs are judged by, resolved: normalized name, direction, and whether the request named it. */
export interface Objective {
  /** Normalized name, e.g. "val/loss". */
  metric: string;
  direction: Direction;
  inferred: boolean;
}

/** The normalized series name a requested metric refers to ("val_loss", "eval/loss" → "val/loss"). */
export function normalizedObjectiveName(metric: string): string {
  return baseName(normalizeMetricName(metric).name);
}

/** Validation (then test) quantities tried, in order, when the request names no objective. */
const INFERENCE_ORDER = ["val/loss", "val/accuracy", "val/f1", "val/auc", "val/perplexity", "test/loss", "test/accuracy", "test/f1", "test/auc"];

/**
 * The objective of a comparison: the requested one (direction from its name when not given), or the first
 * validation quantity most runs logged. Null when neither the request nor the runs give one.
 */
export function resolveObjective(requested: ObjectiveRequest | null, runs: ReadonlyArray<readonly MetricSummary[]>): Objective | null {
  if (requested) {
    const direction = requested.direction ?? directionOf(requested.metric);
    // The decoder refuses a metric whose direction cannot be told (artifacts/compare-request.ts); kept total here.
    return { metric: normalizedObjectiveName(requested.metric), direction: direction ?? "minimize", inferred: false };
  }
  const counts = new Map<string, number>();
  for (const summaries of runs) for (const s of summaries) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  const heldOut = [...counts.keys()].filter((name) => /^(?:val|test)\//.test(name)).sort();
  const candidates = [...INFERENCE_ORDER, ...heldOut].filter((name) => (counts.get(name) ?? 0) === most && directionOf(name));
  const metric = candidates[0];
  return metric ? { metric, direction: directionOf(metric)!, inferred: true } : null;
}

/** A run's summary of the objective's metric. */
export function objectiveSummary(summaries: readonly MetricSummary[], objective: Objective): MetricSummary | undefined {
  return summaries.find((s) => s.name === objective.metric);
}
