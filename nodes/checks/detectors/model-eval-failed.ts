import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type ChecksDetector, checkLabel, flagged, outcomeEvidence, verdictWord } from "../detector.js";

/** Checks that say the model is no better than a naive baseline or barely separates classes: high. */
const SEVERE = /simple model comparison|roc report|mean average precision/i;

/**
 * CR-08: model-evaluation checks that failed (train–test degradation > 10 %, gain over a naive model < 0.1,
 * AUC < 0.7, weak segments, boosting overfit). Medium; high for no gain over baseline or a failing AUC; WARN → low.
 */
export const modelEvalFailed: ChecksDetector = {
  info: {
    id: "checks.model_eval_failed",
    rule: "CR-08",
    title: "Model-evaluation checks failed",
    threshold: "TrainTestPerformance degradation > 10 %, SimpleModelComparison gain < 0.1, RocReport AUC < 0.7, WeakSegments > 20 %, BoostingOverfit > 5 % → medium (high for baseline/AUC); WARN → low",
    severities: ["high", "medium", "low"],
    basis: "Deepchecks model_evaluation suite defaults [P-Deepchecks]; Zhang et al. 2017 [K28]",
  },
  detect(report) {
    const found = flagged(report, "model_eval");
    const fails = found.filter((o) => o.status === "fail");
    const lead = fails.find((o) => SEVERE.test(o.name)) ?? fails[0] ?? found[0];
    if (!lead) return [];
    const severity = !fails.length ? "low" : fails.some((o) => SEVERE.test(o.name)) ? "high" : "medium";
    return [
      detectorFinding({
        id: this.info.id,
        title: "Model-evaluation checks did not pass",
        description: `${found.length} model-evaluation check(s) did not pass; ${checkLabel(lead)} ${verdictWord(lead)}${lead.condition ? ` on "${lead.condition}"` : ""}${lead.message ? `: ${lead.message}` : ""}.`,
        evidence: found.slice(0, 10).map((o) => outcomeEvidence(this.info.rule, o)),
        severity,
        confidence: scoreConfidence({ strength: 1.5, threshold: 1 }),
        recommendation: { action: "Compare against a naive baseline, look at the weak segments and the train–test gap, and regularize or collect data for the segments that fail.", rationale: "Aggregate scores hide segments and gaps that these checks expose (Zhang et al. 2017 on memorization).", category: "model", effort: "medium" },
      }),
    ];
  },
};
