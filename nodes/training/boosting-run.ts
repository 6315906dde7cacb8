import type { TrainingRun } from "./model.js";
import { paramNumber, paramText } from "./params.js";

/**
 * Whether a run trained a gradient-boosted tree ensemble (XGBoost, LightGBM, CatBoost) rather than a network: read
 * from what the libraries and their MLflow autologging leave behind. Its curves are per boosting round, and the
 * advice that fits it is about trees (depth, leaves, learning rate with more rounds, early_stopping_rounds,
 * subsampling), never about dropout or learning-rate decay.
 */

/** Parameters only tree ensembles have (XGBoost, LightGBM, CatBoost, scikit-learn's names for them). */
const TREE_PARAMS = [
  "n_estimators",
  "num_boost_round",
  "num_iterations",
  "num_rounds",
  "nrounds",
  "max_depth",
  "num_leaves",
  "eta",
  "booster",
  "min_child_weight",
  "min_data_in_leaf",
  "min_child_samples",
  "colsample_bytree",
  "colsample_bylevel",
  "feature_fraction",
  "bagging_fraction",
  "l2_leaf_reg",
  "tree_method",
  "grow_policy",
  "boosting_type",
  "max_bin",
  "early_stopping_rounds",
];
/** Two of these make a tree ensemble; one (max_depth alone) could be anything. */
const MIN_TREE_PARAMS = 2;
/** Objectives as the boosting libraries spell them (XGBoost `binary:logistic`, LightGBM `multiclass`, CatBoost `Logloss`). */
const OBJECTIVE = /^(binary|multi|reg|rank|count|survival):|^(binary|multiclass|multiclassova|regression|regression_l1|lambdarank|Logloss|MultiClass|CrossEntropy|RMSE)$/;
/** Evaluation names only boosting libraries log: logloss family, merror, CatBoost's capitalized names, LightGBM's. */
const METRIC = /(^|[-_/.])(logloss|mlogloss|binary_logloss|multi_logloss|binary_error|multi_error|merror|MultiClass|Logloss)$/;
/** The eval-set names of evals_result(): validation_0 / valid_1 / learn. */
const EVAL_SET = /^(validation_\d+|valid_\d+|learn)[-/]/;

export type BoostingEvidence = "autolog tag" | "objective" | "tree params" | "metric names";

/** What marks the run as a boosting run, or null for a network (or anything else). */
export function boostingEvidence(run: TrainingRun): BoostingEvidence | null {
  const flavour = paramText(run.params, "mlflow.autologging");
  if (flavour && /xgboost|lightgbm|catboost/i.test(flavour)) return "autolog tag";
  const objective = paramText(run.params, "objective", "loss_function");
  if (objective && OBJECTIVE.test(objective.trim())) return "objective";
  if (TREE_PARAMS.filter((p) => paramText(run.params, p) !== null).length >= MIN_TREE_PARAMS) return "tree params";
  for (const s of run.series.values()) if (s.sources.some((n) => METRIC.test(n) || EVAL_SET.test(n))) return "metric names";
  return null;
}

export const isBoostingRun = (run: TrainingRun) => boostingEvidence(run) !== null;

/** The early_stopping_rounds the run was given (XGBoost, LightGBM, CatBoost's od_wait), or null when none was. */
export function earlyStoppingRounds(run: TrainingRun): number | null {
  const n = paramNumber(run.params, "early_stopping_rounds", "early_stopping_round", "od_wait", "stopping_rounds");
  return n !== null && n > 0 ? n : null;
}

/**
 * Detectors whose reading or advice is about networks (gradients, dropout, learning-rate schedules, epochs of a
 * fixed model): on a boosting run the boosting detectors judge the rounds instead.
 */
export const NETWORK_ONLY_DETECTORS: ReadonlySet<string> = new Set([
  "training.overfitting",
  "training.early_stop_opportunity",
  "training.generalization_gap",
  "training.plateau",
  "training.lr_too_low",
  "training.lr_schedule",
  "training.oscillation",
  "training.train_val_inversion",
  "training.init_loss_sanity",
  "training.underfitting",
  "training.no_learning",
]);
