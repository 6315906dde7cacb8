import type { DetectorInfo } from "../catalog.js";
import type { DatasetDetector } from "./detector.js";
import { classImbalance } from "./detectors/class-imbalance.js";
import { collinearity } from "./detectors/collinearity.js";
import { conflictingLabels } from "./detectors/conflicting-labels.js";
import { constantFeature } from "./detectors/constant-feature.js";
import { covariateShift } from "./detectors/covariate-shift.js";
import { duplicates } from "./detectors/duplicates.js";
import { featureDrift } from "./detectors/feature-drift.js";
import { idLikeColumn } from "./detectors/id-like-column.js";
import { labelNoise } from "./detectors/label-noise.js";
import { labelPredictiveFeature } from "./detectors/label-predictive-feature.js";
import { labelSignalSplitChange } from "./detectors/label-signal-split-change.js";
import { missingValues } from "./detectors/missing-values.js";
import { nonfiniteFeatures } from "./detectors/nonfinite-features.js";
import { postOutcomeColumn } from "./detectors/post-outcome-column.js";
import { rareClass } from "./detectors/rare-class.js";
import { smallDataset } from "./detectors/small-dataset.js";
import { splitLabelShift } from "./detectors/split-label-shift.js";
import { splitSizes } from "./detectors/split-sizes.js";
import { timeSplitLeak } from "./detectors/time-split-leak.js";
import { trainTestOverlap } from "./detectors/train-test-overlap.js";
import { unnormalizedInputs } from "./detectors/unnormalized-inputs.js";
import { unseenLabels } from "./detectors/unseen-labels.js";

/** Every dataset-statistics detector, in catalog order (DETECTORS.md §2.2). */
export const DATASET_DETECTORS: readonly DatasetDetector[] = [
  classImbalance,
  rareClass,
  unseenLabels,
  splitLabelShift,
  missingValues,
  constantFeature,
  idLikeColumn,
  duplicates,
  trainTestOverlap,
  conflictingLabels,
  labelNoise,
  nonfiniteFeatures,
  unnormalizedInputs,
  labelPredictiveFeature,
  labelSignalSplitChange,
  timeSplitLeak,
  postOutcomeColumn,
  collinearity,
  splitSizes,
  smallDataset,
  covariateShift,
  featureDrift,
];

/** Catalog records of the dataset detectors (docs/detectors.md, knowledge mapping). */
export const datasetDetectors: DetectorInfo[] = DATASET_DETECTORS.map((d) => d.info);
