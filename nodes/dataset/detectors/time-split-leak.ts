import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { shareEvidence } from "../shares.js";
import { pct } from "../../../artifacts/json-values.js";

/**
 * DS-18: test rows dated before the latest train row. Any, on the column the user split on in time → high; on a
 * date/time column found in the files (the split may not be meant as one in time) → medium.
 */
export const timeSplitLeak: DatasetDetector = {
  info: {
    id: "dataset.time_split_leak",
    rule: "DS-18",
    title: "Test rows dated before the end of training",
    threshold: "test rows earlier than the latest train row > 0: high on the --time-column, medium on a date/time column found in the files",
    severities: ["medium", "high"],
    basis: "Deepchecks DateTrainTestLeakageOverlap (0 allowed) [P-Deepchecks]; Kapoor & Narayanan 2023, temporal leakage [K20]; Kaufman et al. 2012 [K19]",
  },
  detect(stats) {
    const t = stats.timeSplit;
    if (!t || !(t.fraction > 0)) return [];
    const severity = t.stated ? "high" : "medium";
    const evidence = shareEvidence(this.info.rule, { count: t.count, fraction: t.fraction, path: t.path }, `test rows dated before the last train row (${t.trainMax ?? "?"}) on "${t.column}"`, 0);
    return [
      detectorFinding({
        id: this.info.id,
        title: this.info.title,
        description: `${pct(t.fraction, 1)} of the test rows are dated before the latest training row on "${t.column}" (test starts ${t.testMin ?? "?"}, training ends ${t.trainMax ?? "?"}). If the model is meant to predict later rows, it was trained on the future of part of its evaluation, which overstates the score.`,
        evidence: [{ ...evidence, values: { ...evidence.values, column: t.column, stated: t.stated } }],
        severity,
        confidence: scoreConfidence({ strength: 1 + t.fraction, threshold: 1, benignPossible: !t.stated }),
        recommendation: {
          action: `Re-split by time on "${t.column}": train on rows before a cut-off date and evaluate on rows after it (a gap between them if labels mature late), then re-evaluate.`,
          rationale: "A random split of dated rows lets the model learn from rows later than those it is tested on, which production never allows (Kapoor & Narayanan 2023).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
