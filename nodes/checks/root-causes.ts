import type { Finding } from "../../domain/result.js";
import type { RootCause } from "../root-causes.js";

/** The report a piece of evidence comes from: `checks_artifacts.reports[2]`, or the artifact itself (legacy suite map). */
function reportOf(artifact: string): string {
  return /^[^.[]+\.(?:reports|checks)\[\d+\]/.exec(artifact)?.[0] ?? artifact.split(".")[0]!;
}

/** Whether two findings rest on the same report, i.e. on the same pair of datasets. */
function sameReport(a: Finding, b: Finding): boolean {
  const reports = new Set(a.evidence.map((e) => reportOf(e.artifact)));
  return b.evidence.some((e) => reports.has(reportOf(e.artifact)));
}

/** Causes several check-report findings share; grouped by nodes/root-causes.ts. */
export const CHECKS_ROOT_CAUSES: readonly RootCause[] = [
  {
    // Label, multivariate, per-feature and prediction drift of one report compare the same two datasets: a label
    // shift moves the features that predict the label, and a covariate shift moves the predictions.
    ids: ["checks.label_drift", "checks.dataset_drift", "checks.feature_drift", "checks.prediction_drift"],
    title: "One shift between the compared datasets, seen by several drift checks",
    explanation: "Drift checks of one report compare the same two datasets, so what they found is one shift:",
    sameCause: sameReport,
  },
];
