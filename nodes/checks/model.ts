/** The internal model every check-report format is normalized into. */
import type { Severity } from "../../domain/result.js";
import type { CountShare } from "../dataset/model.js";

export type CheckTool = "deepchecks" | "evidently" | "great_expectations" | "tfdv" | "generic";

/** `none`: the check ran but has no condition or test, so it gives numbers without a verdict. */
export type CheckStatus = "pass" | "warn" | "fail" | "error" | "skipped" | "none";

/** What a check is about; detectors select outcomes by it (DETECTORS.md §2.3). */
export type CheckCategory =
  | "integrity"
  | "leakage"
  | "shortcut"
  | "feature_drift"
  | "dataset_drift"
  | "label_drift"
  | "prediction_drift"
  | "new_labels"
  | "split"
  | "schema"
  | "expectation"
  | "model_eval"
  | "other";

/** A per-column (or per-property) number inside a check, e.g. one feature's drift score. */
export interface CheckDetail {
  name: string;
  score: number | null;
  threshold: number | null;
  /** Over its threshold, or listed as failing by the report. */
  flagged: boolean;
  method?: string;
  importance?: number;
  /** Sub-key, e.g. the class for a per-class PPS. */
  subject?: string;
}

/** One verdict of one check (a Deepchecks condition, an Evidently test, a GE expectation, a generic record). */
export interface CheckOutcome {
  tool: CheckTool;
  /** Suite or report name. */
  report: string | null;
  /** Check name, e.g. "Label Drift", "expect_column_values_to_not_be_null", "missing_values". */
  name: string;
  /** The condition or test text, when there is one. */
  condition: string | null;
  category: CheckCategory;
  status: CheckStatus;
  message: string;
  /** The main number the verdict rests on, as a fraction where the tool reports percent. */
  observed: number | null;
  /** The report's own threshold for it (condition value, 1 − mostly, drift_share…). */
  threshold: number | null;
  /** `observed` and `threshold` are shares of rows (unexpected values, duplicated or mixed rows): quoted as percentages. */
  share?: boolean;
  columns: string[];
  details: CheckDetail[];
  /** Further named numbers (domain-classifier AUC, row counts…). */
  values: Record<string, number>;
  /** A CheckFailure saying the check does not apply to this task (a coverage note, not a fault). */
  notApplicable: boolean;
  /**
   * The severity the user gave this check in the tool (Great Expectations' expectation `severity`, also read from
   * `meta.severity`), mapped to ours; a failure is reported at it instead of the detector's own band.
   */
  declaredSeverity?: Severity;
  /** Where it is in the request, for evidence. */
  path: string;
}

/** One report read from the artifact, for describe() and the digest. */
export interface ReportSummary {
  tool: CheckTool;
  /** e.g. "Deepchecks SuiteResult", "Evidently 0.7 snapshot", "Great Expectations 1.x validation result". */
  format: string;
  name: string | null;
  path: string;
}

/** Row counts a report states for a split role, for CR-10. */
export interface RowCount {
  role: "train" | "test" | "batch";
  rows: number;
  source: string;
}

/** One column's numbers as a report states them without a verdict (a metric, or a check without a condition). */
export interface StatedColumn {
  name: string;
  /** Rows the numbers are over, when stated. */
  rows: number | null;
  missing: number | null;
  missingFraction: number | null;
  unique: number | null;
  /** Standard deviation of a numeric column (0: a constant). */
  std: number | null;
  path: string;
}

/**
 * Data facts reports state without a pass/fail verdict (Evidently preset metrics, legacy dataset summaries,
 * Deepchecks checks run without a condition). The checks analyzer judges them by the dataset detectors'
 * thresholds (nodes/checks/stated-stats.ts); facts that carry a verdict are judged by the verdict instead.
 */
export interface StatedFacts {
  columns: StatedColumn[];
  duplicates: CountShare | null;
  /** The label column, when a report names it (legacy Evidently column mapping). */
  target: string | null;
}

/** Check reports normalized from any of the formats of ARTIFACTS.md. */
export interface ChecksReport {
  field: string;
  outcomes: CheckOutcome[];
  reports: ReportSummary[];
  /** `dataset_name` of the legacy suite map, and of the request, for CR-10. */
  reportDatasetName: string | null;
  requestDatasetName: string | null;
  /** Legacy config: suites that were switched off. */
  suitesSkipped: string[];
  rowCounts: RowCount[];
  /** Column sets a report states (GE table columns, drift columns), for CR-10. */
  columnSets: Array<{ source: string; columns: string[]; complete: boolean }>;
  /** Parts of the artifact that could not be read, each with the reason. */
  unreadable: Array<{ path: string; reason: string }>;
  stated: StatedFacts;
}
