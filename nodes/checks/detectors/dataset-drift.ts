import { detectorFinding, scoreConfidence } from "../../findings.js";
import { fmt } from "../../../artifacts/json-values.js";
import { type ChecksDetector, checkLabel, flaggedOrOverDefault, leadOutcome, outcomeEvidence, severityByStatus } from "../detector.js";
import type { CheckOutcome } from "../model.js";

/** Deepchecks MultivariateDrift default: drift score (2·AUC − 1) ≥ 0.25, i.e. a domain classifier AUC ≥ 0.625. */
const DOMAIN_CLASSIFIER_DEFAULT = 0.25;

function driftText(o: CheckOutcome): string {
  const auc = o.values.domain_classifier_auc;
  if (auc !== undefined || o.tool === "deepchecks") {
    const top = o.details.filter((d) => (d.importance ?? 0) > 0).slice(0, 3).map((d) => `${d.name} ${fmt(d.importance ?? 0)}`).join(", ");
    return `a domain classifier tells train from test apart${auc !== undefined ? ` with AUC ${fmt(auc)}` : ""} (drift score ${fmt(o.observed ?? 0)} against ${fmt(o.threshold ?? DOMAIN_CLASSIFIER_DEFAULT)}${o.threshold === null ? ", the catalog default" : ""})${top ? `; it relies most on ${top}` : ""}`;
  }
  const count = o.values.count ?? o.details.filter((d) => d.flagged).length;
  const total = o.values.columns ?? (o.details.length || null);
  return `${fmt(count)}${total ? ` of ${fmt(total)}` : ""} columns drifted (share ${fmt(o.observed ?? 0)}, dataset drift at ≥ ${fmt(o.threshold ?? 0.5)})`;
}

/** CR-04: dataset-level drift (Evidently share of drifted columns ≥ drift_share, Deepchecks multivariate/domain-classifier drift) → high. */
export const datasetDrift: ChecksDetector = {
  info: {
    id: "checks.dataset_drift",
    rule: "CR-04",
    title: "Dataset-level drift",
    threshold: "Evidently dataset_drift (share ≥ drift_share, default 0.5) or Deepchecks Multivariate/Image Dataset Drift FAIL (or ≥ 0.25 without a condition) → high; WARN → medium",
    severities: ["high", "medium"],
    basis: "Evidently get_dataset_drift; Deepchecks MultivariateDrift 0.25 [P-Deepchecks]; Rabanser et al. 2019 domain classifier [K23]",
  },
  detect(report) {
    const found = flaggedOrOverDefault(report, "dataset_drift", DOMAIN_CLASSIFIER_DEFAULT);
    // A legacy Evidently report states the same share twice (DatasetDriftMetric and DataDriftTable).
    const unique = found.filter((o, i) => found.findIndex((x) => x.observed === o.observed && x.threshold === o.threshold && x.tool === o.tool) === i);
    const lead = leadOutcome(unique);
    if (!lead) return [];
    const threshold = lead.threshold ?? DOMAIN_CLASSIFIER_DEFAULT;
    return [
      detectorFinding({
        id: this.info.id,
        title: "The evaluation data as a whole has drifted",
        description: `${checkLabel(lead)} ${lead.status === "none" ? "has no condition, but" : lead.status === "warn" ? "warned:" : "failed:"} ${driftText(lead)}. Validation or test no longer represents the training distribution, so their scores do not carry over.`,
        evidence: unique.map((o) => outcomeEvidence(this.info.rule, o, o.status === "none" ? DOMAIN_CLASSIFIER_DEFAULT : undefined)),
        severity: severityByStatus(unique, "high", "medium"),
        confidence: scoreConfidence({ strength: lead.observed ?? threshold, threshold }),
        recommendation: {
          action: "Build validation and test from the distribution the model will serve (e.g. time-based or site-based splits), add training data from the new conditions, and use the domain classifier's top features to find what changed.",
          rationale: "When a classifier can tell the splits apart, the evaluation measures a different population (Rabanser et al. 2019).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
