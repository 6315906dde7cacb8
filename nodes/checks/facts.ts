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
});
export type ChecksFacts = z.infer<typeof ChecksFactsSchema>;
