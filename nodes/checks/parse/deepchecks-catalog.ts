import type { CheckCategory } from "../model.js";

/** Deepchecks checks (tabular, vision, nlp; 0.19 names and older aliases) by what they are about. */
const CATEGORY_BY_CHECK: Record<string, CheckCategory> = {
  "train test samples mix": "leakage",
  "date train test leakage duplicates": "leakage",
  "date train test leakage overlap": "leakage",
  "index train test leakage": "leakage",
  "identifier label correlation": "leakage",
  "identifier leakage": "leakage",
  "feature label correlation": "leakage",
  "single feature contribution": "leakage",
  "property label correlation": "leakage",
  "feature label correlation change": "shortcut",
  "single feature contribution train test": "shortcut",
  "property label correlation change": "shortcut",
  "feature drift": "feature_drift",
  "train test feature drift": "feature_drift",
  "image property drift": "feature_drift",
  "text property drift": "feature_drift",
  "property drift": "feature_drift",
  "label drift": "label_drift",
  "train test label drift": "label_drift",
  "prediction drift": "prediction_drift",
  "train test prediction drift": "prediction_drift",
  "multivariate drift": "dataset_drift",
  "whole dataset drift": "dataset_drift",
  "image dataset drift": "dataset_drift",
  "text embeddings drift": "dataset_drift",
  "new label train test": "new_labels",
  "new labels": "new_labels",
  "datasets size comparison": "split",
  "new category train test": "split",
  "category mismatch train test": "split",
  "string mismatch comparison": "split",
  "heatmap comparison": "split",
  "train test performance": "model_eval",
  "performance report": "model_eval",
  "class performance": "model_eval",
  "roc report": "model_eval",
  "confusion matrix report": "model_eval",
  "simple model comparison": "model_eval",
  "weak segments performance": "model_eval",
  "segment performance": "model_eval",
  "calibration score": "model_eval",
  "regression error distribution": "model_eval",
  "regression systematic error": "model_eval",
  "unused features": "model_eval",
  "boosting overfit": "model_eval",
  "model inference time": "model_eval",
  "mean average precision report": "model_eval",
  "mean average recall report": "model_eval",
  "single dataset performance": "model_eval",
  "model error analysis": "model_eval",
};

/** "TrainTestSamplesMix", "Train Test Samples Mix" and "train_test_samples_mix" → "train test samples mix". */
export function normalizeCheckName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-\s]+/g, " ")
    .trim()
    .toLowerCase();
}

/**
 * The category of a Deepchecks check; for Feature Label Correlation Change, the condition on train PPS alone
 * is a leakage signal while the train–test difference is a shortcut signal.
 */
export function deepchecksCategory(checkName: string, condition: string | null): CheckCategory {
  const key = normalizeCheckName(checkName);
  const known = CATEGORY_BY_CHECK[key];
  if (known === "shortcut" && condition && /train\b.*(pps|predictive power score)/i.test(condition) && !/difference/i.test(condition)) return "leakage";
  if (known) return known;
  if (/label.*drift/.test(key)) return "label_drift";
  if (/prediction.*drift/.test(key)) return "prediction_drift";
  if (/dataset drift|multivariate/.test(key)) return "dataset_drift";
  if (/drift/.test(key)) return "feature_drift";
  if (/leak|samples mix/.test(key)) return "leakage";
  if (/performance|report|model|overfit|calibration|segment/.test(key)) return "model_eval";
  return "integrity";
}

/** Exceptions that say the check does not fit the task or data (no datetime or index column, wrong model type). */
const NOT_APPLICABLE =
  /does not have default|does not contain (?:a|an) |not (?:supported|applicable|relevant)|(?:is )?irrelevant|(?:is )?(?:only )?relevant (?:only )?for|only (?:supported|applicable)|not implemented for|cannot be (?:run|calculated|computed) (?:on|for)|unsupported task|task type .* (?:is not|does not)/i;

/** Whether a CheckFailure's exception says the check does not apply (rather than that it broke). */
export function saysNotApplicable(exception: string): boolean {
  return NOT_APPLICABLE.test(exception);
}
