import type { DetectorInfo } from "../catalog.js";
import type { ChecksDetector } from "./detector.js";
import { checkFailed } from "./detectors/check-failed.js";
import { coverageGap } from "./detectors/coverage-gap.js";
import { datasetDrift } from "./detectors/dataset-drift.js";
import { expectationFailed } from "./detectors/expectation-failed.js";
import { featureDrift } from "./detectors/feature-drift.js";
import { integrityFailed } from "./detectors/integrity-failed.js";
import { labelDrift } from "./detectors/label-drift.js";
import { leakageFailed } from "./detectors/leakage-failed.js";
import { modelEvalFailed } from "./detectors/model-eval-failed.js";
import { newLabels } from "./detectors/new-labels.js";
import { predictionDrift } from "./detectors/prediction-drift.js";
import { reportDataMismatch } from "./detectors/report-data-mismatch.js";
import { schemaAnomaly } from "./detectors/schema-anomaly.js";
import { shortcutRisk } from "./detectors/shortcut-risk.js";
import { statedConstantFeature, statedDuplicates, statedMissingValues } from "./stated-stats.js";

/** Every check-report detector, in catalog order (DETECTORS.md §2.3). */
export const CHECKS_DETECTORS: readonly ChecksDetector[] = [
  integrityFailed,
  leakageFailed,
  shortcutRisk,
  featureDrift,
  datasetDrift,
  labelDrift,
  predictionDrift,
  newLabels,
  schemaAnomaly,
  expectationFailed,
  statedMissingValues,
  statedDuplicates,
  statedConstantFeature,
  modelEvalFailed,
  coverageGap,
  reportDataMismatch,
  checkFailed,
];

/** Catalog records of the check-report detectors (docs/detectors.md, knowledge mapping). */
export const checksDetectors: DetectorInfo[] = CHECKS_DETECTORS.map((d) => d.info);
