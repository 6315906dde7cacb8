import type { Evidence, Severity } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { fmt } from "../../../artifacts/json-values.js";

const MIN_TEST_ROWS = 100;
const MIN_TEST_RATIO = 0.01;
/** Rows below which a 50 % accuracy has a standard error above 2.5 points: √(0.25/400) = 0.025. */
const RESOLUTION_ROWS = 400;

/**
 * DS-15: evaluation split too small (< 100 rows, or < 1 % of train) or larger than train → medium; below 400
 * rows the standard error of an accuracy exceeds 2.5 points → low.
 */
export const splitSizes: DatasetDetector = {
  info: {
    id: "dataset.split_sizes",
    rule: "DS-15",
    title: "Unbalanced or too small splits",
    threshold: "eval split < 100 rows or < 1 % of train, or larger than train → medium; < 400 rows (SE > 2.5 pp) → low",
    severities: ["medium", "low"],
    basis: "Deepchecks DatasetsSizeComparison (test/train > 0.01) [P-Deepchecks]; SE = √(p(1−p)/n) [K01]",
  },
  detect(stats) {
    const train = stats.splitRows.train;
    if (!train) return [];
    const evidence: Evidence[] = [];
    let severity: Severity | null = null;
    for (const split of ["val", "test"] as const) {
      const n = stats.splitRows[split];
      if (n === undefined) continue;
      const path = `${stats.field}.statistics.splits.${split}`;
      const se = Math.sqrt(0.25 / Math.max(n, 1));
      if (n < MIN_TEST_ROWS || n / train < MIN_TEST_RATIO || n > train) {
        severity = "medium";
        const why = n > train ? `larger than train (${fmt(train)})` : `${fmt(n)} rows, ${((n / train) * 100).toFixed(2)} % of train`;
        evidence.push({ rule_id: this.info.rule, artifact: path, text: `${split}: ${why}; thresholds ≥ ${MIN_TEST_ROWS} rows and ≥ ${MIN_TEST_RATIO * 100} % of train.`, observed: n, threshold: MIN_TEST_ROWS, values: { split, train_rows: train, standard_error: Number(se.toFixed(4)) } });
      } else if (n < RESOLUTION_ROWS) {
        severity ??= "low";
        evidence.push({ rule_id: this.info.rule, artifact: path, text: `${split}: ${fmt(n)} rows; an accuracy near 50 % has a standard error of ±${(se * 100).toFixed(1)} points, so smaller differences are noise.`, observed: n, threshold: RESOLUTION_ROWS, values: { split, standard_error: Number(se.toFixed(4)) } });
      }
    }
    if (!severity) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: severity === "medium" ? "Evaluation split has an unusable size" : "Evaluation split is small",
        description: severity === "medium" ? "An evaluation split is too small (or larger than train) to measure the model reliably." : "An evaluation split is small: differences of a few points between models or epochs are within its noise.",
        evidence,
        severity,
        confidence: scoreConfidence({ strength: 1.5, threshold: 1 }),
        recommendation: { action: "Re-split so validation and test have at least a few hundred rows (or use cross-validation for small data), and report confidence intervals.", rationale: "An evaluation set's standard error bounds the differences it can resolve.", category: "data", effort: "low" },
      }),
    ];
  },
};
