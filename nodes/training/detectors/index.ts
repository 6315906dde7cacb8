import type { TrainingDetector } from "./detector.js";
import { ampOverflow } from "./amp-overflow.js";
import { boostingNoEarlyStopping, boostingOverfitting } from "./boosting-rounds.js";
import { chanceLevel } from "./chance-level.js";
import { divergence } from "./divergence.js";
import { earlyStopOpportunity } from "./early-stop-opportunity.js";
import { evalCoverage } from "./eval-coverage.js";
import { explodingGradients } from "./exploding-gradients.js";
import { generalizationGap } from "./generalization-gap.js";
import { initLossSanity } from "./init-loss.js";
import { cudaOom, dataloaderBottleneck, dataloaderErrors, nonfiniteWarnings } from "./log-events.js";
import { lossSpikes } from "./loss-spikes.js";
import { lrSchedule } from "./lr-schedule.js";
import { lrTooHigh } from "./lr-too-high.js";
import { lrTooLow } from "./lr-too-low.js";
import { metricFrozen } from "./metric-frozen.js";
import { noLearning } from "./no-learning.js";
import { nonfiniteLoss } from "./nonfinite-loss.js";
import { oscillation } from "./oscillation.js";
import { overClipping } from "./over-clipping.js";
import { overfitting } from "./overfitting.js";
import { plateau } from "./plateau.js";
import { stillImproving } from "./still-improving.js";
import { suspiciousPerfection } from "./suspicious-perfection.js";
import { trainValInversion } from "./train-val-inversion.js";
import { truncatedLog } from "./truncated-log.js";
import { underfitting } from "./underfitting.js";
import { vanishingGradients } from "./vanishing-gradients.js";

/** Every training-history detector, in catalog order (TH-01 … TH-23, the log's completeness, then log events). */
export const TRAINING_DETECTORS: readonly TrainingDetector[] = [
  nonfiniteLoss,
  divergence,
  lossSpikes,
  noLearning,
  chanceLevel,
  initLossSanity,
  plateau,
  oscillation,
  lrTooHigh,
  lrTooLow,
  vanishingGradients,
  explodingGradients,
  overClipping,
  overfitting,
  generalizationGap,
  earlyStopOpportunity,
  boostingOverfitting,
  boostingNoEarlyStopping,
  underfitting,
  metricFrozen,
  trainValInversion,
  suspiciousPerfection,
  lrSchedule,
  ampOverflow,
  evalCoverage,
  stillImproving,
  truncatedLog,
  cudaOom,
  dataloaderErrors,
  dataloaderBottleneck,
  nonfiniteWarnings,
];

export type { TrainingDetector } from "./detector.js";
