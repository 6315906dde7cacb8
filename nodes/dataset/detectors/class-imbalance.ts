import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector, trainClassCounts } from "../detector.js";
import { fmt, pct } from "../../../artifacts/json-values.js";

const RATIO_THRESHOLD = 0.1;
const EXTREME_SHARE = 0.01;

/** DS-01: minority/majority below 0.1 in train; an extreme minority (< 1 %, or < 0.1/K) makes it high. */
export const classImbalance: DatasetDetector = {
  info: {
    id: "dataset.class_imbalance",
    rule: "DS-01",
    title: "Strong class imbalance",
    threshold: "minority/majority < 0.1 → medium; minority share < 1 % or < 0.1/K → high",
    severities: ["medium", "high"],
    basis: "SageMaker Clarify 10:1, Deepchecks ClassImbalance 0.1; Google MLCC 'extreme' < 1 % [K39]; cleanlab 0.1/K",
  },
  detect(stats) {
    const train = trainClassCounts(stats);
    if (!train) return [];
    const present = Object.entries(train.counts).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
    const major = present[0];
    const minor = present.at(-1);
    if (!major || !minor || present.length < 2) return [];
    const ratio = minor[1] / major[1];
    if (ratio >= RATIO_THRESHOLD) return [];
    const total = present.reduce((s, [, n]) => s + n, 0);
    const share = minor[1] / total;
    const k = present.length;
    const extreme = share < EXTREME_SHARE || share < 0.1 / k;
    const where = train.split === "train" ? "In train" : "In the dataset";
    return [
      detectorFinding({
        id: this.info.id,
        title: "Classes are strongly imbalanced",
        description: `${where}, the smallest class "${minor[0]}" has ${fmt(minor[1])} examples against ${fmt(major[1])} for "${major[0]}" (about 1:${Math.round(1 / ratio)}). Accuracy will mostly reflect the large classes.`,
        evidence: [
          {
            rule_id: this.info.rule,
            artifact: train.path,
            text: `minority/majority = ${ratio.toFixed(3)} (threshold ${RATIO_THRESHOLD}); minority share ${pct(share, 2)} of ${fmt(total)} rows over ${k} classes.`,
            observed: Number(ratio.toFixed(4)),
            threshold: RATIO_THRESHOLD,
            values: { minority_class: minor[0], minority_count: minor[1], majority_class: major[0], majority_count: major[1], minority_share: Number(share.toFixed(5)), classes: k },
          },
        ],
        severity: extreme ? "high" : "medium",
        confidence: scoreConfidence({ strength: RATIO_THRESHOLD / ratio, threshold: 1 }),
        recommendation: {
          action: "Use class weights or resampling (down-sample and up-weight the majority), keep splits stratified, and report per-class recall, macro F1 or balanced accuracy instead of accuracy alone.",
          rationale: "With imbalanced classes a model can score high accuracy while missing the small classes (He & Garcia 2009).",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
