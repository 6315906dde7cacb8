import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector, featureColumns, isDeepModality } from "../detector.js";
import { fmt } from "../../../artifacts/json-values.js";

const ROWS_PER_FEATURE = 10;
const ROWS_PER_CLASS = 100;

/**
 * DS-16 (heuristic): fewer than ~10 training rows per feature (tabular) or fewer than ~100 training examples
 * per class for deep networks on images, text or audio → medium.
 */
export const smallDataset: DatasetDetector = {
  info: {
    id: "dataset.small_dataset",
    rule: "DS-16",
    title: "Small training set for the problem",
    threshold: "train rows / features < 10 (tabular) or train rows / classes < 100 (deep modalities) — heuristic",
    severities: ["medium"],
    basis: "Rules of thumb, stated as such; Karpathy 2019 recipe [K02]",
  },
  detect(stats) {
    const train = stats.splitRows.train ?? stats.numRows;
    if (!train) return [];
    const deep = isDeepModality(stats.modality);
    const classes = Object.keys(stats.classCounts.train ?? stats.classCounts.all ?? {}).length;
    const features = featureColumns(stats).length;
    const perUnit = deep ? (classes ? train / classes : null) : features ? train / features : null;
    const threshold = deep ? ROWS_PER_CLASS : ROWS_PER_FEATURE;
    if (perUnit === null || perUnit >= threshold) return [];
    const unit = deep ? "class" : "feature";
    return [
      detectorFinding({
        id: this.info.id,
        title: "Small training set",
        description: `Train has ${fmt(train)} rows for ${deep ? `${classes} classes` : `${features} features`} (${fmt(Math.round(perUnit))} per ${unit}); a rule of thumb asks for at least ${threshold}. Expect high variance and overfitting with a large model.`,
        evidence: [{ rule_id: this.info.rule, artifact: `${stats.field}.statistics`, text: `${fmt(Math.round(perUnit))} training rows per ${unit} (heuristic threshold ${threshold}).`, observed: Number(perUnit.toFixed(2)), threshold, values: { train_rows: train, classes, features } }],
        severity: "medium",
        confidence: scoreConfidence({ strength: threshold / Math.max(perUnit, 0.1), threshold: 1, benignPossible: true }),
        recommendation: { action: deep ? "Start from a pretrained model (transfer learning), augment, and evaluate with cross-validation." : "Prefer a simpler, regularized model, select features, and evaluate with cross-validation.", rationale: "Model capacity has to match the data available; with little data simple models and strong priors generalize better (Karpathy 2019).", category: "model", effort: "medium" },
      }),
    ];
  },
};
