import type { Finding } from "../../domain/result.js";
import { DATASET_DETECTORS } from "./catalog.js";
import type { DatasetStats } from "./model.js";

/** Runs every dataset detector over normalized statistics (pure). */
export function detectDatasetFindings(stats: DatasetStats, detectors = DATASET_DETECTORS): Finding[] {
  return detectors.flatMap((d) => d.detect(stats));
}
