import type { Finding } from "../../graph/result.js";
import { detectorFinding, MAX_CONFIDENCE } from "../findings.js";
import type { CrossEvidence, CrossRule } from "./evidence.js";

const corroborated = (...fs: Array<Finding | undefined>) =>
  Math.min(MAX_CONFIDENCE, Math.max(...fs.map((f) => f?.confidence ?? 0)) * 1.2);

const LEAKAGE_IDS = ["checks.leakage_failed", "dataset.train_test_overlap", "dataset.label_predictive_feature"];

/** XA-01: a near-perfect validation score together with any leakage signal: the score is not valid. */
export const detectScoreWithLeakage: CrossRule = (ev: CrossEvidence) => {
  const perfect = ev.get("training.suspicious_perfection");
  const leak = LEAKAGE_IDS.map((id) => ev.get(id)).find(Boolean);
  if (!perfect || !leak) return [];
  return [
    detectorFinding({
      id: "cross.score_with_leakage",
      title: "Reported score is likely inflated by leakage",
      description: `The validation score is near perfect while ${leak.title.toLowerCase()}: treat the score as invalid until it is re-measured on a leakage-free split.`,
      evidence: [...perfect.evidence, ...leak.evidence].map((e) => ({ ...e, rule_id: "XA-01" })),
      severity: "critical",
      confidence: corroborated(perfect, leak),
      recommendation: { action: "De-duplicate across splits, split by group or time, drop post-outcome and ID columns, then re-evaluate against a simple baseline.", rationale: "A validation score is only meaningful on data the model has not effectively seen.", category: "data", effort: "medium" },
    }),
  ];
};

/** XA-02: a generalization gap where the checks report drift: the gap may be shift, not overfitting. */
export const detectGapExplainedByShift: CrossRule = (ev) => {
  const gap = ev.get("training.generalization_gap") ?? ev.get("training.overfitting");
  const drift = ev.get("checks.dataset_drift") ?? ev.get("checks.feature_drift") ?? ev.get("checks.label_drift");
  if (!gap || !drift) return [];
  return [
    detectorFinding({
      id: "cross.gap_explained_by_shift",
      title: "Train/validation gap coincides with distribution shift",
      description: `${gap.title} while the data checks report ${drift.title.toLowerCase()}: part of the gap is likely distribution shift, which regularization alone will not close.`,
      evidence: [...gap.evidence, ...drift.evidence].map((e) => ({ ...e, rule_id: "XA-02" })),
      severity: "high",
      confidence: corroborated(gap, drift),
      recommendation: { action: "Make validation match the target distribution (time-based or re-collected split) before adding regularization.", rationale: "When validation differs in distribution, the gap measures shift as much as overfitting.", category: "data", effort: "medium" },
    }),
  ];
};

/** Every cross-artifact rule, run by `integrate` in this order. */
export const CROSS_RULES: readonly CrossRule[] = [detectScoreWithLeakage, detectGapExplainedByShift];

export function runCrossRules(ev: CrossEvidence, rules: readonly CrossRule[] = CROSS_RULES): Finding[] {
  return rules.flatMap((rule) => rule(ev));
}
