import type { Finding } from "../../domain/result.js";
import { detectBatchNormStats } from "./detectors/batchnorm.js";
import { detectLoadCode } from "./detectors/load-code.js";
import { detectModelFormat } from "./detectors/model-format.js";
import { detectShapeMismatch } from "./detectors/config.js";
import { detectDtypeMix } from "./detectors/precision.js";
import { detectHeaderOnly, detectMissingMetadata, detectNoOptimizerState, detectUnrecognizedFormat } from "./detectors/provenance.js";
import { detectRequiresUnsafeLoad, detectUnsafePickle, detectUnverifiedContent } from "./detectors/safety.js";
import { detectCorruptFile, detectParamCountMismatch, detectSizeVsParams } from "./detectors/size.js";
import { detectAllZeroTensors, detectConstantTensors, detectDeadUnits, detectExplodingWeights, detectNonfiniteWeights } from "./detectors/values.js";
import type { CheckpointInfo } from "./table.js";

/** Every checkpoint detector, in catalog order; each is a pure function of the normalized table. */
export const CHECKPOINT_DETECTORS: ReadonlyArray<(info: CheckpointInfo) => Finding[]> = [
  detectUnsafePickle,
  detectUnverifiedContent,
  detectLoadCode,
  detectRequiresUnsafeLoad,
  detectNonfiniteWeights,
  detectAllZeroTensors,
  detectConstantTensors,
  detectExplodingWeights,
  detectDeadUnits,
  detectBatchNormStats,
  detectDtypeMix,
  detectSizeVsParams,
  detectCorruptFile,
  detectMissingMetadata,
  detectShapeMismatch,
  detectParamCountMismatch,
  detectNoOptimizerState,
  detectHeaderOnly,
  detectUnrecognizedFormat,
  detectModelFormat,
];

/** Runs every checkpoint detector over the table (scanned file or client statistics alike). */
export function detectCheckpointFindings(info: CheckpointInfo): Finding[] {
  return CHECKPOINT_DETECTORS.flatMap((detect) => detect(info));
}
