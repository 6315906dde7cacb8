import type { CrossRule } from "../evidence.js";
import { crossFinding, pct } from "./common.js";

const IMBALANCE_AWARE = /^(f1|f1_macro|macro_f1|balanced_accuracy|auc|roc_auc|pr_auc|average_precision|precision|recall|mcc|kappa)/;

/** XA-03: strongly imbalanced classes while accuracy is the only validation metric logged. */
export const detectImbalanceAccuracyOnly: CrossRule = (ev) => {
  const imbalance = ev.get("dataset.class_imbalance");
  const training = ev.facts.training;
  if (!imbalance || !training) return [];
  const quantities = training.val_quantities;
  if (!quantities.includes("accuracy") || quantities.some((q) => IMBALANCE_AWARE.test(q))) return [];
  return [
    crossFinding({
      name: "imbalance_accuracy_only",
      rule: "XA-03",
      title: "Imbalanced classes judged by accuracy alone",
      description: `${imbalance.description} Yet the only validation metric logged besides loss is accuracy (${quantities.join(", ")}), which a model can keep high while failing the minority classes.`,
      severity: "high",
      basedOn: [imbalance],
      baseConfidence: 0.75,
      evidence: [{ artifact: "training_artifacts.metrics", text: `Validation metrics logged: ${quantities.join(", ")}.` }],
      recommendation: {
        action: "Log and select on macro F1, balanced accuracy or PR-AUC, and report per-class recall.",
        rationale: "Accuracy is dominated by the majority classes when they make up most of the data.",
        category: "training",
        effort: "low",
      },
    }),
  ];
};

/** XA-04: validation accuracy at the majority-class share: the model predicts one class. */
export const detectMajorityClassCollapse: CrossRule = (ev) => {
  const share = ev.facts.dataset?.majority_share ?? null;
  const acc = ev.facts.training?.final_val_accuracy ?? null;
  if (share === null || acc === null || share < 0.5) return [];
  const frozen = ev.get("training.metric_frozen");
  if (Math.abs(acc - share) > 0.01 && !(frozen && Math.abs(acc - share) <= 0.02)) return [];
  return [
    crossFinding({
      name: "majority_class_collapse",
      rule: "XA-04",
      title: "The model predicts the majority class",
      description: `Final validation accuracy ${acc.toFixed(3)} equals the majority-class share ${share.toFixed(3)} within 1 pp: the model most likely predicts one class for everything.`,
      severity: "critical",
      basedOn: [frozen, ev.get("dataset.class_imbalance")],
      baseConfidence: 0.7,
      evidence: [{ artifact: "training_artifacts.metrics + dataset_artifacts.statistics", text: `val accuracy ${acc.toFixed(4)} vs majority share ${pct(share, 2)}.`, observed: acc, threshold: share }],
      recommendation: {
        action: "Check the predictions' class distribution, then use class weights or resampling and verify the loss/activation pairing and learning rate.",
        rationale: "Accuracy equal to the majority share is what a constant predictor scores.",
        category: "training",
        effort: "low",
      },
    }),
  ];
};

export const IMBALANCE_RULES: readonly CrossRule[] = [detectImbalanceAccuracyOnly, detectMajorityClassCollapse];
