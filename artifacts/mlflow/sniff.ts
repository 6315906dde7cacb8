import { isDeepchecksResult, isDeepchecksSuite } from "../../nodes/checks/parse/deepchecks.js";
import { isEvidentlyReport } from "../../nodes/checks/parse/evidently.js";
import { isGenericCheck } from "../../nodes/checks/parse/generic.js";
import { isGreatExpectationsResult } from "../../nodes/checks/parse/great-expectations.js";
import { isLegacySuiteMap } from "../../nodes/checks/parse/legacy-suite-map.js";
import { isMlflowDataset } from "../../nodes/dataset/parse/mlflow.js";
import { isRecord } from "../json-values.js";
import { isEvalsResult } from "../../nodes/training/parse/boosting.js";
import { isLongRows } from "../../nodes/training/parse/shapes.js";
import { type ArtifactKind, REQUEST_FIELD_BY_KIND } from "../context.js";
import { basename } from "./discover.js";

/** What a JSON or YAML document pulled from a run turned out to be. */
export type Sniffed =
  /** A file named after a request field (`dataset_artifacts.json`…): that field's payload as is. */
  | { kind: ArtifactKind; as: "payload" }
  | { kind: "checks"; as: "report" | "checks_list" | "legacy_suite_map" }
  | { kind: "training"; as: "trainer_state" | "rows" | "arrays" | "legacy" }
  | { kind: "dataset"; as: "statistics" | "mlflow_dataset" | "payload" };

/** Field names a file may carry, legacy ones included. */
const FIELD_FILES: Record<string, ArtifactKind> = {
  ...Object.fromEntries(Object.entries(REQUEST_FIELD_BY_KIND).map(([kind, field]) => [field, kind as ArtifactKind])),
  deepchecks_artifacts: "checks",
};

const STATISTICS_KEYS = ["num_rows", "num_samples", "splits", "class_distribution", "columns", "describe", "num_train_samples", "train_mean"];
const METRIC_NAME = /loss|acc|auc|f1|precision|recall|error|lr|learning_rate/i;

const isNumberArray = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number" || x === null);
const numericRows = (v: unknown[]) =>
  v.length > 0 && v.every((r) => isRecord(r) && Object.values(r).some((x) => typeof x === "number")) && ("epoch" in (v[0] as object) || "step" in (v[0] as object));

/** Tells a document's kind from its name (request-field files) or its content; null when it is none of ours. */
export function sniffDocument(path: string, value: unknown): Sniffed | null {
  const stem = basename(path).replace(/\.(json|ya?ml)$/i, "");
  const field = FIELD_FILES[stem];
  if (field && isRecord(value)) return { kind: field, as: "payload" };
  if (isLegacySuiteMap(value)) return { kind: "checks", as: "legacy_suite_map" };
  if (isDeepchecksSuite(value) || isDeepchecksResult(value) || isEvidentlyReport(value) || isGreatExpectationsResult(value)) {
    return { kind: "checks", as: "report" };
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isGenericCheck)) return { kind: "checks", as: "checks_list" };
    if (isLongRows(value) || numericRows(value)) return { kind: "training", as: "rows" };
    return null;
  }
  if (isMlflowDataset(value)) return { kind: "dataset", as: "mlflow_dataset" };
  if (!isRecord(value)) return null;
  if (Array.isArray(value.log_history)) return { kind: "training", as: "trainer_state" };
  if (isRecord(value.metrics_values)) return { kind: "training", as: "legacy" };
  if (isRecord(value.statistics)) return { kind: "dataset", as: "payload" };
  if (STATISTICS_KEYS.some((k) => k in value)) return { kind: "dataset", as: "statistics" };
  // XGBoost/LightGBM/CatBoost evals_result(): metric arrays grouped by evaluation set.
  if (isEvalsResult(value)) return { kind: "training", as: "arrays" };
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([, v]) => isNumberArray(v)) && entries.some(([k]) => METRIC_NAME.test(k))) {
    return { kind: "training", as: "arrays" };
  }
  return null;
}
