import type { Finding } from "../../graph/result.js";
import { detectorFinding } from "../findings.js";
import type { DatasetStats } from "./parse.js";

/** DS-01: minority/majority < 0.1 → medium; minority share < 1 % → high. */
export function detectClassImbalance(stats: DatasetStats): Finding[] {
  const train = stats.classCounts.train;
  if (!train) return [];
  const counts = Object.entries(train).sort((a, b) => b[1] - a[1]);
  const [major, minor] = [counts[0], counts.at(-1)];
  if (!major || !minor || counts.length < 2 || major[1] <= 0) return [];
  const ratio = minor[1] / major[1];
  const share = minor[1] / counts.reduce((s, [, n]) => s + n, 0);
  if (ratio >= 0.1) return [];
  return [
    detectorFinding({
      id: "dataset.class_imbalance",
      title: "Classes are strongly imbalanced",
      description: `In train, "${minor[0]}" has ${minor[1]} examples against ${major[1]} for "${major[0]}" (ratio 1:${Math.round(1 / ratio)}).`,
      evidence: [{ rule_id: "DS-01", artifact: "dataset_artifacts.statistics.class_distribution.train", text: `minority/majority = ${ratio.toFixed(3)}, minority share ${(share * 100).toFixed(2)} %.`, observed: ratio, threshold: 0.1 }],
      severity: share < 0.01 ? "high" : "medium",
      confidence: 0.9,
      recommendation: { action: "Use class weights or resampling, stratified splits, and report per-class metrics (macro F1, balanced accuracy).", rationale: "Accuracy on imbalanced data mostly measures the majority classes.", category: "data", effort: "low" },
    }),
  ];
}

/** DS-04: missing fraction > 5 % medium, > 1 % low. */
export function detectMissingValues(stats: DatasetStats): Finding[] {
  return Object.entries(stats.missing)
    .filter(([, frac]) => frac > 0.01)
    .map(([col, frac]) =>
      detectorFinding({
        id: "dataset.missing_values",
        title: "Column with many missing values",
        description: `Column "${col}" is ${(frac * 100).toFixed(1)} % missing.`,
        evidence: [{ rule_id: "DS-04", artifact: `dataset_artifacts.statistics.columns.${col}`, text: `${(frac * 100).toFixed(2)} % missing.`, observed: frac, threshold: frac > 0.05 ? 0.05 : 0.01 }],
        severity: frac > 0.05 ? "medium" : "low",
        confidence: 0.9,
        recommendation: { action: `Impute "${col}" with statistics fitted on train only and add a missingness indicator.`, rationale: "Unhandled missing values bias the model or drop rows silently.", category: "data", effort: "low" },
      }),
    );
}

export function detectDatasetFindings(stats: DatasetStats): Finding[] {
  return [...detectClassImbalance(stats), ...detectMissingValues(stats)];
}
