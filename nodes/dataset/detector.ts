import type { Finding } from "../../domain/result.js";
import type { DetectorInfo } from "../catalog.js";
import type { ColumnStats, DatasetStats } from "./model.js";
import { ALL_SPLITS } from "./parse/classes.js";

/** A dataset-statistics detector: its catalog record and a pure function from statistics to findings. */
export interface DatasetDetector {
  info: DetectorInfo;
  detect(stats: DatasetStats): Finding[];
}

/** Class counts of the training split (or of the whole dataset when it is not split), with their path. */
export function trainClassCounts(stats: DatasetStats): { split: string; path: string; counts: Record<string, number> } | null {
  const split = stats.classCounts.train ? "train" : stats.classCounts[ALL_SPLITS] ? ALL_SPLITS : null;
  const counts = split ? stats.classCounts[split] : undefined;
  if (!split || !counts) return null;
  return { split, path: split === ALL_SPLITS ? stats.classPath : `${stats.classPath}.${split}`, counts };
}

/** Columns that are inputs to the model: every column except the target. */
export function featureColumns(stats: DatasetStats): ColumnStats[] {
  return stats.columns.filter((c) => c.name !== stats.target);
}

/** Dataset-level modalities where inputs feed a neural network directly. */
export function isDeepModality(modality: string | null): boolean {
  return modality !== null && /image|vision|text|audio|speech|video|nlp/.test(modality);
}
