import { z } from "zod";

/** What the checks analyzer hands to cross-artifact rules (integrate). */
export const ChecksFactsSchema = z.object({
  /** Tools whose reports were read: "deepchecks" | "evidently" | "great_expectations" | "generic". */
  tools: z.array(z.string()),
  /** Names of failed leakage-type checks (train-test samples mix, identifier-label correlation…). */
  leakage_failures: z.array(z.string()),
  /** Features reported drifted and the share of features drifted (0–1), when known. */
  drifted_features: z.array(z.string()),
  drift_share: z.number().nullable(),
  /** Label (target) drift score and whether a check flagged it. */
  label_drift: z.number().nullable(),
  label_drift_detected: z.boolean(),
  /** Fraction of evaluation rows also present in train, when a check measured it. */
  overlap_fraction: z.number().nullable(),
  /** Columns a check found non-finite or null-heavy values in. */
  nonfinite_columns: z.array(z.string()),
  checks_total: z.number().int(),
  checks_failed: z.number().int(),
  // Added by the checks analyzer, which always fills them; optional so other producers of facts stay valid.
  checks_warned: z.number().int().optional(),
  /** Checks that errored or were skipped (CheckFailure, ERROR, SKIPPED). */
  checks_errored: z.number().int().optional(),
  /** A dataset-level drift check failed (Evidently dataset_drift, Deepchecks multivariate drift). */
  dataset_drift_detected: z.boolean().optional(),
  /** Features or image properties whose label predictiveness changed between train and test (shortcut risk). */
  shortcut_features: z.array(z.string()).optional(),
  /** Row counts the reports state per split role, for comparison with the dataset statistics (CR-10). */
  row_counts: z.object({ train: z.number().nullable(), test: z.number().nullable() }).optional(),
  /** Column names the reports checked (validated table columns, drift columns). */
  columns_checked: z.array(z.string()).optional(),
});
export type ChecksFacts = z.infer<typeof ChecksFactsSchema>;
