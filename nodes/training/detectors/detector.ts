import type { Finding } from "../../../domain/result.js";
import type { DetectorInfo } from "../../catalog.js";
import type { TrainingRun } from "../model.js";

/** One training-history detector: its catalog record and a pure function from the parsed run to findings. */
export interface TrainingDetector {
  info: DetectorInfo;
  detect(run: TrainingRun): Finding[];
}

/** Evidence path of a metric series. */
export const metricArtifact = (name: string) => `training_artifacts.metrics:${name}`;
export const LOGS_ARTIFACT = "training_artifacts.logs";
export const PARAMS_ARTIFACT = "training_artifacts.params";

/** A number for people: 4 significant digits, no trailing zeros, exponent for very small or large values. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return "0";
  const abs = Math.abs(x);
  if (abs < 1e-3 || abs >= 1e6) return x.toExponential(2).replace(/\.?0+e/, "e");
  return String(Number(x.toPrecision(4)));
}

/** A percentage for people: "12.5 %". */
export const pct = (fraction: number) => `${fmt(100 * fraction)} %`;

/** Rounds numbers kept in evidence so responses stay readable and stable. */
export function round(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(6)) : x;
}
