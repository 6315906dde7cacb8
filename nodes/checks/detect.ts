import type { Finding } from "../../domain/result.js";
import { CHECKS_DETECTORS } from "./catalog.js";
import type { ChecksReport } from "./model.js";

/** Runs every check-report detector over the normalized report (pure). */
export function detectChecksFindings(report: ChecksReport, detectors = CHECKS_DETECTORS): Finding[] {
  return detectors.flatMap((d) => d.detect(report));
}
