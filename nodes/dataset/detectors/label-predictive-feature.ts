import { detectorFinding, scoreConfidence } from "../../findings.js";
import { listNames } from "../../../artifacts/json-values.js";
import { type DatasetDetector, featureColumns } from "../detector.js";
import type { ColumnStats } from "../model.js";

const PPS_THRESHOLD = 0.8;
/** Identifiers and dates should predict nothing; above this PPS they do. */
const ID_PPS_THRESHOLD = 0.05;
const ID_OR_DATE_NAME = /(^|_)(id|uuid|guid|key|index|date|time|timestamp)$|^id_/i;

function suspicious(c: ColumnStats): boolean {
  const p = c.labelPredictiveness;
  if (p === null || !Number.isFinite(p)) return false;
  return p >= PPS_THRESHOLD || ((ID_OR_DATE_NAME.test(c.name) || c.kind === "datetime") && p > ID_PPS_THRESHOLD);
}

/** DS-13: one feature predicts the label almost alone (PPS ≥ 0.8), or an ID/date column predicts it at all. */
export const labelPredictiveFeature: DatasetDetector = {
  info: {
    id: "dataset.label_predictive_feature",
    rule: "DS-13",
    title: "A single feature predicts the label",
    threshold: "PPS (or MI/|r|) with the label ≥ 0.8; identifier or date column PPS > 0.05",
    severities: ["high"],
    basis: "Deepchecks FeatureLabelCorrelation 0.8 and IdentifierLabelCorrelation [P-Deepchecks]; Kaufman et al. 2012 [K19]; Kapoor & Narayanan 2023 [K20]",
  },
  detect(stats) {
    const hits = featureColumns(stats).filter(suspicious).sort((a, b) => (b.labelPredictiveness ?? 0) - (a.labelPredictiveness ?? 0));
    const top = hits[0];
    if (!top) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "A single feature predicts the label",
        description: `${listNames(hits.map((c) => c.name))} predict${hits.length === 1 ? "s" : ""} the label almost by ${hits.length === 1 ? "itself" : "themselves"} (best score ${top.labelPredictiveness!.toFixed(2)}). This is the signature of target leakage: a feature computed from the label or known only after the outcome.`,
        evidence: hits.slice(0, 10).map((c) => ({
          rule_id: this.info.rule,
          artifact: c.path,
          text: `"${c.name}": predictive power ${c.labelPredictiveness!.toFixed(3)} (threshold ${ID_OR_DATE_NAME.test(c.name) ? ID_PPS_THRESHOLD : PPS_THRESHOLD}).`,
          observed: Number(c.labelPredictiveness!.toFixed(4)),
          threshold: ID_OR_DATE_NAME.test(c.name) ? ID_PPS_THRESHOLD : PPS_THRESHOLD,
          values: { column: c.name },
        })),
        severity: "high",
        confidence: scoreConfidence({ strength: top.labelPredictiveness!, threshold: PPS_THRESHOLD, benignPossible: true }),
        recommendation: {
          action: `Check how ${listNames(hits.map((c) => c.name), 3)} ${hits.length === 1 ? "is" : "are"} produced and when ${hits.length === 1 ? "it is" : "they are"} known; drop ${hits.length === 1 ? "it" : "them"} if computed from the label or after the outcome, then retrain and compare.`,
          rationale: "A feature that alone predicts the label is usually leakage and will not be available, or not behave the same, at prediction time (Kaufman et al. 2012).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
