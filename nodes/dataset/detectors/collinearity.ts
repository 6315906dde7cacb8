import { detectorFinding, scoreConfidence } from "../../findings.js";
import type { DatasetDetector } from "../detector.js";
import { fmt } from "../../../artifacts/json-values.js";

const R_THRESHOLD = 0.9;

/** DS-14: feature pairs correlated above |r| = 0.9 (the target excluded) → low. */
export const collinearity: DatasetDetector = {
  info: {
    id: "dataset.collinearity",
    rule: "DS-14",
    title: "Highly correlated features",
    threshold: "feature–feature |r| > 0.9",
    severities: ["low"],
    basis: "ydata-profiling and Deepchecks FeatureFeatureCorrelation 0.9 [P-Deepchecks]",
  },
  detect(stats) {
    const pairs = stats.correlations
      .filter((p) => p.a !== stats.target && p.b !== stats.target && Math.abs(p.r) > R_THRESHOLD)
      .sort((x, y) => Math.abs(y.r) - Math.abs(x.r));
    const top = pairs[0];
    if (!top) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Highly correlated features",
        description: `${pairs.length} feature pair(s) are nearly redundant, the strongest "${top.a}" and "${top.b}" (r = ${fmt(top.r)}). Redundant features make coefficients unstable and importances misleading.`,
        evidence: pairs.slice(0, 10).map((p) => ({
          rule_id: this.info.rule,
          artifact: p.path,
          text: `"${p.a}" ~ "${p.b}": r = ${fmt(p.r)} (threshold |r| > ${R_THRESHOLD}).`,
          observed: Number(p.r.toFixed(4)),
          threshold: R_THRESHOLD,
          values: { feature_a: p.a, feature_b: p.b },
        })),
        severity: "low",
        confidence: scoreConfidence({ strength: Math.abs(top.r), threshold: R_THRESHOLD, benignPossible: true }),
        recommendation: { action: "Drop or merge one feature of each redundant pair (or use regularization) and read importances with the pair in mind.", rationale: "Collinear inputs split credit between themselves and make linear models unstable.", category: "data", effort: "low" },
      }),
    ];
  },
};
