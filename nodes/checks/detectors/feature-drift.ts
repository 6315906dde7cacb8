import { detectorFinding, scoreConfidence } from "../../findings.js";
import { fmt, listNames } from "../../../artifacts/json-values.js";
import { type ChecksDetector, flagged, outcomeEvidence } from "../detector.js";
import type { CheckDetail, ChecksReport } from "../model.js";

const SHARE_HIGH = 0.5;
const TOP_IMPORTANCE = 3;

/** How far past its threshold a drift score is (p-value methods drift when the score is low). */
function exceedance(d: CheckDetail): number | null {
  if (d.score === null || d.threshold === null || d.threshold <= 0) return null;
  if (d.method && /p_value|p-value/i.test(d.method)) return Math.min(10, d.threshold / Math.max(d.score, 1e-6));
  return d.score / d.threshold;
}

/** Every per-column drift number in the report, one per column (flagged wins), from drift checks and drift tables. */
export function columnDrifts(report: ChecksReport): CheckDetail[] {
  const byName = new Map<string, CheckDetail>();
  const add = (d: CheckDetail) => {
    const seen = byName.get(d.name);
    if (!seen || (d.flagged && !seen.flagged)) byName.set(d.name, d);
  };
  for (const o of report.outcomes) {
    if (o.notApplicable) continue;
    if (o.category === "dataset_drift") o.details.filter((d) => d.score !== null).forEach(add);
    if (o.category !== "feature_drift") continue;
    if (o.details.length) o.details.forEach((d) => add({ ...d, flagged: d.flagged && (o.status === "fail" || o.status === "warn") }));
    else for (const c of o.columns.length ? o.columns : [o.name]) add({ name: c, score: o.observed, threshold: o.threshold, flagged: o.status === "fail" || o.status === "warn" });
  }
  return [...byName.values()];
}

/**
 * Share of assessed features that drifted. TFDV and generic records list only the anomalous columns, so with
 * nothing else to count against the share is unknown (null) rather than 100 %.
 */
export function driftedShare(report: ChecksReport, drifts: readonly CheckDetail[] = columnDrifts(report)): number | null {
  const complete = report.outcomes.some((o) => (o.category === "feature_drift" || o.category === "dataset_drift") && o.tool !== "tfdv" && o.tool !== "generic");
  return complete && drifts.length ? drifts.filter((d) => d.flagged).length / drifts.length : null;
}

/**
 * CR-03: features reported drifted (Deepchecks Feature/Image Property Drift, Evidently ValueDrift or
 * drift_by_columns, failed GE distribution expectations). FAIL → medium; high when more than half the features
 * drift or a drifted feature is among the 3 most important; WARN only → low.
 */
export const featureDrift: ChecksDetector = {
  info: {
    id: "checks.feature_drift",
    rule: "CR-03",
    title: "Feature drift between train and evaluation data",
    threshold: "drift check FAIL per feature (the report's own threshold) → medium; > 50 % of features or a top-3-importance feature → high; WARN only → low",
    severities: ["high", "medium", "low"],
    basis: "Deepchecks FeatureDrift 0.2; Evidently stattest defaults (FORMATS.md §3.3); Rabanser et al. 2019 [K23]; Gama et al. 2014 [K41]",
  },
  detect(report) {
    const outcomes = flagged(report, "feature_drift");
    const all = columnDrifts(report);
    const drifted = all.filter((d) => d.flagged).sort((a, b) => (exceedance(b) ?? 0) - (exceedance(a) ?? 0));
    if (!drifted.length && !outcomes.length) return [];
    const names = drifted.length ? drifted.map((d) => d.name) : outcomes.map((o) => o.name);
    const share = driftedShare(report, all);
    const important = [...all].filter((d) => d.importance !== undefined).sort((a, b) => b.importance! - a.importance!).slice(0, TOP_IMPORTANCE);
    const importantDrifted = important.filter((d) => d.flagged).map((d) => d.name);
    const anyFail = outcomes.some((o) => o.status === "fail") || report.outcomes.some((o) => o.category === "dataset_drift" && o.details.some((d) => d.flagged));
    const severity = !anyFail ? "low" : (share !== null && share > SHARE_HIGH) || importantDrifted.length ? "high" : "medium";
    const scored = drifted.filter((d) => d.score !== null).slice(0, 5).map((d) => `"${d.name}" ${fmt(d.score!)}${d.threshold !== null ? ` (threshold ${fmt(d.threshold)})` : ""}`);
    const exceed = Math.max(0, ...drifted.map((d) => exceedance(d) ?? 1));
    const sources = (outcomes.length ? outcomes : report.outcomes.filter((o) => o.category === "dataset_drift" && o.details.some((d) => d.flagged)))
      .slice()
      .sort((a, b) => (b.observed ?? 0) - (a.observed ?? 0));
    const overview = {
      rule_id: this.info.rule,
      artifact: sources[0]?.path ?? report.field,
      text: `${drifted.length}${share !== null ? ` of ${all.length}` : ""} feature${drifted.length === 1 && share === null ? "" : "s"} drifted${scored.length ? `: ${scored.join(", ")}` : ""}.`,
      observed: share !== null ? Number(share.toFixed(4)) : drifted.length,
      threshold: SHARE_HIGH,
      values: { drifted: drifted.length, assessed: all.length, important_drifted: importantDrifted.join(", ") || null },
    };
    return [
      detectorFinding({
        id: this.info.id,
        title: severity === "low" ? "Minor feature drift" : "Features drifted between train and evaluation data",
        description: `${drifted.length ? `${drifted.length}${share !== null ? ` of ${all.length}` : ""} feature${drifted.length === 1 && share === null ? "" : "s"} drifted${share !== null ? ` (share ${fmt(share)})` : ""}: ${scored.length ? scored.join(", ") : listNames(names)}.` : `${listNames(names)} reported drift.`}${importantDrifted.length ? ` Among the most important features: ${listNames(importantDrifted)}.` : ""}${severity === "low" ? " Only a warning: the shift is small." : " The evaluation data differs from what the model was trained on."}`,
        evidence: [overview, ...sources.slice(0, 9).map((o) => outcomeEvidence(this.info.rule, o))],
        severity,
        confidence: scoreConfidence({ strength: exceed, threshold: 1, corroborations: drifted.length >= 3 ? 1 : 0 }),
        recommendation: {
          action: "Check how and when each split was sampled and that preprocessing is identical; then re-split, collect evaluation-like training data, or re-weight by importance if the shift is real.",
          rationale: "Drifted inputs make evaluation scores describe a different population than training (Rabanser et al. 2019).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
