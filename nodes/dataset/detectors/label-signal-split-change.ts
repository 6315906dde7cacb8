import { detectorFinding, scoreConfidence } from "../../findings.js";
import { listNames } from "../../../artifacts/json-values.js";
import type { DatasetDetector } from "../detector.js";
import type { LabelSignalFact } from "../model.js";

/** Drop of a feature's label score from train to test that Deepchecks' Feature Label Correlation Change flags. */
const DROP_MEDIUM = 0.2;
const DROP_HIGH = 0.4;
/** The drop must also stand this many standard deviations above a useless feature's test score. */
const NOISE_SDS = 3;

/** Rounded so that scores written to a few decimals meet the thresholds as written (0.7 − 0.3 is 0.39999…). */
function drop(s: LabelSignalFact): number {
  return s.test === null ? 0 : Number((s.train - s.test).toFixed(9));
}

function significant(s: LabelSignalFact): boolean {
  return drop(s) >= DROP_MEDIUM && drop(s) > NOISE_SDS * (s.testNullSd ?? 0);
}

/**
 * DS-17: a feature predicts the label in train but much less in test (train score − test score ≥ 0.2 → medium,
 * ≥ 0.4 → high). Either the feature leaks the label in train only (filled from the outcome while building the
 * training set) or the relation changed between the splits (a time or group effect).
 */
export const labelSignalSplitChange: DatasetDetector = {
  info: {
    id: "dataset.label_signal_split_change",
    rule: "DS-17",
    title: "A feature predicts the label in train but not in test",
    threshold: "train − test label score ≥ 0.2 → medium, ≥ 0.4 → high, and > 3 SD of a useless feature's test score",
    severities: ["medium", "high"],
    basis: "Deepchecks FeatureLabelCorrelationChange (PPS difference < 0.2) [P-Deepchecks]; Kaufman et al. 2012 [K19]",
  },
  detect(stats) {
    const hits = stats.labelSignals.filter((s) => s.column !== stats.target && significant(s)).sort((a, b) => drop(b) - drop(a));
    const top = hits[0];
    if (!top) return [];
    const names = listNames(hits.map((s) => s.column));
    return [
      detectorFinding({
        id: this.info.id,
        title: this.info.title,
        description: `${names} predict${hits.length === 1 ? "s" : ""} the label far better in train than in test (largest drop ${drop(top).toFixed(2)}: ${top.train.toFixed(2)} → ${top.test!.toFixed(2)}). A feature that carries the label only in train is leakage through the split; otherwise the relation changed between the splits (time or group effect), and the test score will not hold.`,
        evidence: hits.slice(0, 10).map((s) => ({
          rule_id: this.info.rule,
          artifact: s.path,
          text: `"${s.column}": label score ${s.train.toFixed(3)} in train, ${s.test!.toFixed(3)} in test (drop ${drop(s).toFixed(3)}; threshold ${DROP_MEDIUM}).`,
          observed: Number(drop(s).toFixed(4)),
          threshold: DROP_MEDIUM,
          values: { column: s.column, train: s.train, test: s.test, method: s.method },
        })),
        severity: drop(top) >= DROP_HIGH ? "high" : "medium",
        confidence: scoreConfidence({ strength: drop(top), threshold: DROP_MEDIUM, benignPossible: true }),
        recommendation: {
          action: `Find out how ${listNames(hits.map((s) => s.column), 3)} ${hits.length === 1 ? "is" : "are"} filled in each split: drop ${hits.length === 1 ? "it" : "them"} if derived from the outcome; if the relation drifts, re-split by time or by group so train and test come from the same process.`,
          rationale: "A feature whose predictive power differs between train and test either leaked the label into training or measures a relation that will not hold in production (Deepchecks Feature Label Correlation Change).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
