import { isRecord } from "../../../artifacts/json-values.js";
import { readCsv } from "./csv-table.js";
import { readMetricValue } from "./number.js";
import type { SeriesBuilder } from "./series-builder.js";

/**
 * Gradient-boosting histories. Points are named `<set>-<metric>` as MLflow's xgboost/lightgbm autolog names them
 * (`validation_0-logloss`, `valid_0-binary_logloss`, `learn-Logloss`), so nodes/training/names.ts reads every
 * source the same way; the x axis is the boosting round (0-based, as the libraries and autolog count it).
 */

/**
 * Whether `metrics` is an `evals_result()` / `evals_result_` dict of XGBoost, LightGBM or CatBoost:
 * `{"validation_0": {"logloss": [...]}}`, `{"valid_0": {"binary_logloss": [...]}}`, `{"learn": {…}, "validation": {…}}`.
 */
export function isEvalsResult(metrics: Record<string, unknown>): boolean {
  const sets = Object.values(metrics);
  return (
    sets.length > 0 &&
    sets.every((set) => isRecord(set) && Object.keys(set).length > 0 && Object.values(set).every(isNumberList))
  );
}

const isNumberList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "number" || x === null);

const NUMBERED_SET = /^(validation|valid)_(\d+)$/;

/**
 * The names a run's evaluation sets are read under. XGBoost early-stops on the last of its eval_set and the
 * common `eval_set=[(X_train, y_train), (X_val, y_val)]` puts the training data first, so of numbered sets
 * (validation_0, validation_1…; LightGBM's valid_0…) the last is read as the validation split (index 0) and the
 * earlier ones after it (docs/decisions.md). Other names are kept.
 */
export function evalSetNames(sets: readonly string[]): Map<string, string> {
  const numbered = sets.filter((s) => NUMBERED_SET.test(s));
  const last = Math.max(...numbered.map((s) => Number(NUMBERED_SET.exec(s)![2])));
  return new Map(
    sets.map((s) => {
      const m = NUMBERED_SET.exec(s);
      return [s, m && numbered.length > 1 ? `${m[1]}_${last - Number(m[2])}` : s];
    }),
  );
}

/** Reads an evals_result dict (see isEvalsResult); returns the points read. */
export function readEvalsResult(metrics: Record<string, unknown>, out: SeriesBuilder): number {
  let points = 0;
  const names = evalSetNames(Object.keys(metrics));
  for (const [set, byMetric] of Object.entries(metrics)) {
    for (const [metric, values] of Object.entries(byMetric as Record<string, unknown[]>)) {
      const cols = out.columns(`${set}-${metric}`, values.length, `${names.get(set)}-${metric}`);
      values.forEach((v, round) => {
        if (typeof v === "number") cols.push(round, v, Number.NaN, Number.NaN);
      });
      points += values.length;
    }
  }
  return points;
}

/** One of CatBoost's `catboost_info/*.tsv` files. */
export interface CatboostFile {
  path: string;
  content: string;
}

/** The evaluation set a CatBoost error file holds: learn_error.tsv the training set, test_error.tsv the eval_set. */
export function catboostSetOf(path: string): "learn" | "validation" | null {
  const name = path.split(/[\\/]/).pop() ?? "";
  if (name === "learn_error.tsv") return "learn";
  // CatBoost's evals_result() calls the same set "validation"; the file keeps its older name.
  if (name === "test_error.tsv") return "validation";
  return null;
}

/**
 * Reads CatBoost's learn_error.tsv and test_error.tsv (`iter<TAB>Logloss<TAB>AUC…`). Other files of
 * catboost_info (time_left.tsv: time, not a metric) are the caller's to leave out. Returns the rows read.
 */
export function readCatboostTsv(files: readonly CatboostFile[], out: SeriesBuilder): number {
  let rows = 0;
  files.forEach((f, i) => {
    const set = catboostSetOf(f.path);
    if (!set) throw new Error(`metrics.files[${i}].path: expected learn_error.tsv or test_error.tsv, got ${JSON.stringify(f.path)}`);
    readCsv(f.content, (header) => {
      const iter = header.indexOf("iter");
      const columns = header.flatMap((h, j) => (j === iter || h === "" ? [] : [{ j, cols: out.columns(`${set}-${h}`) }]));
      let index = 0;
      return (row) => {
        const at = readMetricValue(row[iter]);
        const round = typeof at === "number" && Number.isFinite(at) ? at : index;
        index++;
        rows++;
        for (const { j, cols } of columns) {
          const value = readMetricValue(row[j]);
          if (typeof value === "number") cols.push(round, value, Number.NaN, Number.NaN);
        }
      };
    });
  });
  return rows;
}
