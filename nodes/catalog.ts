import type { Severity } from "../domain/result.js";

/** One detector as documented in docs/detectors.md and mapped to knowledge documents. */
export interface DetectorInfo {
  /** The finding id it emits, e.g. "training.overfitting". */
  id: string;
  /** Catalog rule of DETECTORS.md, e.g. "TH-13". */
  rule: string;
  title: string;
  /** The rule and its thresholds in one line. */
  threshold: string;
  severities: Severity[];
  /** Where the threshold comes from (DETECTORS.md source keys or papers). */
  basis: string;
}
