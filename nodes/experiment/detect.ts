import type { Finding } from "../../domain/result.js";
import { prioritizeFindings } from "../findings.js";
import { detectBoundaryOptimum } from "./detectors/boundary.js";
import { detectFailedRuns } from "./detectors/failed-runs.js";
import { detectPick } from "./detectors/pick.js";
import { type BaselineComparison, compareWithBaseline, detectRegression } from "./detectors/regression.js";
import { detectDeterministicSeeds, detectNoSeedReplicates } from "./detectors/seed-replicates.js";
import { detectSensitivity } from "./detectors/sensitivity.js";
import { detectSharedRunFindings } from "./detectors/shared-findings.js";
import { detectWithinNoise } from "./detectors/within-noise.js";
import type { Experiment } from "./model.js";

/** Every cross-run detector over one experiment, findings prioritized, and the baseline comparison they rest on. */
export function detectExperimentFindings(e: Experiment): { findings: Finding[]; comparison: BaselineComparison | null } {
  const comparison = compareWithBaseline(e);
  const findings = [
    ...detectRegression(e, comparison),
    ...detectFailedRuns(e),
    ...detectWithinNoise(e),
    ...detectBoundaryOptimum(e),
    ...detectSensitivity(e),
    ...detectNoSeedReplicates(e),
    ...detectDeterministicSeeds(e),
    ...detectSharedRunFindings(e),
    ...detectPick(e),
  ];
  return { findings: prioritizeFindings(findings), comparison };
}
