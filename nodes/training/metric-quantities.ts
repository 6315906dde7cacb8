/**
 * The quantities a logged metric name may stand for, and which way is better for each: the table docs/artifacts.md
 * ("Metric names") shows. Names are lower-cased with spaces as `_` before they are looked up here.
 */

/** Better when lower (a loss, an error) or higher (an accuracy, an AUC). */
export type Direction = "lower" | "higher";

/** Aliases of one quantity. */
interface Quantity {
  aliases: readonly string[];
  direction: Direction;
}

const QUANTITIES: Record<string, Quantity> = {
  // The objective's loss. Boosting libraries name it after the objective (XGBoost logloss/mlogloss, LightGBM
  // binary_logloss/multi_logloss, CatBoost Logloss/MultiClass/CrossEntropy); Ultralytics' box_loss stands for the
  // detection loss (its cls_loss and dfl_loss stay components under their own names: docs/decisions.md).
  loss: {
    aliases: ["loss", "logloss", "binary_logloss", "multi_logloss", "mlogloss", "multiclass", "multiclassova", "cross_entropy", "crossentropy", "xentropy", "cross_entropy_loss", "nll", "nll_loss", "box_loss"],
    direction: "lower",
  },
  accuracy: { aliases: ["acc", "accuracy", "categorical_accuracy", "sparse_categorical_accuracy", "binary_accuracy"], direction: "higher" },
  // Misclassification rate: XGBoost error/merror, LightGBM binary_error/multi_error, fastai error_rate.
  error: { aliases: ["error", "error_rate", "merror", "binary_error", "multi_error", "zero_one_loss"], direction: "lower" },
  f1: { aliases: ["f1", "f1_score", "f1score", "macro_f1", "f1_macro", "totalf1"], direction: "higher" },
  auc: { aliases: ["auc", "roc_auc", "auroc", "auc_roc"], direction: "higher" },
  aucpr: { aliases: ["aucpr", "pr_auc", "average_precision", "prauc"], direction: "higher" },
  precision: { aliases: ["precision"], direction: "higher" },
  recall: { aliases: ["recall"], direction: "higher" },
  perplexity: { aliases: ["ppl", "perplexity"], direction: "lower" },
  // Regression losses: LightGBM's l2 is the mean squared error and l1 the mean absolute error.
  rmse: { aliases: ["rmse", "l2_root", "root_mean_squared_error"], direction: "lower" },
  mse: { aliases: ["mse", "l2", "mean_squared_error"], direction: "lower" },
  mae: { aliases: ["mae", "l1", "mean_absolute_error"], direction: "lower" },
  // Top-k accuracy as timm writes it (eval_top1: a percentage, so not merged with accuracy's 0–1 scale).
  top1: { aliases: ["top1", "top1_acc", "acc1", "top_1"], direction: "higher" },
  top5: { aliases: ["top5", "top5_acc", "acc5", "top_5"], direction: "higher" },
  // Ultralytics' detection metrics (metrics/mAP50(B), metrics/mAP50-95(B); the (B)/(M) box/mask tag is dropped).
  map50: { aliases: ["map50", "map_50"], direction: "higher" },
  map50_95: { aliases: ["map50-95", "map50_95", "map"], direction: "higher" },
};

const BY_ALIAS = new Map(Object.entries(QUANTITIES).flatMap(([q, { aliases }]) => aliases.map((a) => [a, q] as const)));

/** Quantities that describe the model's fit on a split; a bare name ("loss", "accuracy") is the train split. */
export const MODEL_QUANTITIES = new Set(["loss", "accuracy", "error", "f1", "auc", "aucpr", "perplexity", "precision", "recall", "rmse", "mse", "mae"]);

/** The quantity a (split-less) name stands for, or the name itself when it is none of the table's. */
export function quantityOf(name: string): string {
  return BY_ALIAS.get(name) ?? name;
}

/** Which way a quantity is better, or null when it is not a measure of the model (lr, grad_norm) or unknown. */
export function directionOf(quantity: string): Direction | null {
  if (QUANTITIES[quantity]) return QUANTITIES[quantity].direction;
  // Components of a loss keep their own names (loss_cls, cls_loss, dfl_loss) and are losses all the same.
  return /(?:^|_)loss(?:$|_)/.test(quantity) ? "lower" : null;
}

