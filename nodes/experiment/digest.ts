import type { Severity } from "../../domain/result.js";
import type { MetricSummary } from "./reduce.js";

/** A per-run finding as the comparison keeps it: enough to group and list it, not its evidence. */
export interface RunFindingDigest {
  id: string;
  title: string;
  severity: Severity;
  confidence: number;
}

/** What survives of one run once the per-run graph has analysed it: params, reduced metrics, its findings' ids. */
export interface RunDigest {
  name: string;
  /** Position in the request, so the response lists runs in the order they were sent. */
  index: number;
  /** Hyper-parameters as logged (strings, as MLflow stores them). */
  params: Record<string, string>;
  metrics: MetricSummary[];
  /** The per-run diagnosis summary. */
  summary: string | null;
  /** Every per-run finding, prioritized (severity, then confidence). */
  findings: RunFindingDigest[];
  /** Agent → error of the per-run analysis (a training artifact it could not read, a time-out). */
  errors: Record<string, string>;
}
