import type { DetectorInfo } from "../catalog.js";
import { TRAINING_DETECTORS } from "./detectors/index.js";

/** Catalog records of every training-history detector (docs/detectors.md, knowledge mapping). */
export const trainingDetectors: DetectorInfo[] = TRAINING_DETECTORS.map((d) => d.info);
