import { z } from "zod";
import { isAxisName } from "./names.js";
import { readMetricValue } from "./parse/number.js";
import { RUN_STATUSES } from "./parse/progress.js";
import { CONTENT_FORMATS, isLongRows, wideCellProblem } from "./parse/shapes.js";
import { isNumberArray, isRecord } from "../../artifacts/json-values.js";

/** Issues reported per artifact at most; one bad array stops its own scan. */
const MAX_ISSUES = 5;

type Issues = { add(path: PropertyKey[], message: string): void; full(): boolean };


const NOT_A_NUMBER = 'expected a number (or null, "NaN", "Infinity")';

function describe(v: unknown): string {
  return v === undefined ? "nothing" : JSON.stringify(v)?.slice(0, 40) ?? typeof v;
}

function checkValue(v: unknown, path: PropertyKey[], issues: Issues): boolean {
  if (readMetricValue(v) !== undefined) return true;
  issues.add(path, `${NOT_A_NUMBER}, got ${describe(v)}`);
  return false;
}

function checkArrays(metrics: Record<string, unknown>, issues: Issues): void {
  for (const [name, points] of Object.entries(metrics)) {
    if (!Array.isArray(points) || issues.full() || isNumberArray(points)) continue;
    for (let i = 0; i < points.length; i++) {
      const p: unknown = points[i];
      const ok = isRecord(p) ? checkValue(p.value, [name, i, "value"], issues) : checkValue(p, [name, i], issues);
      if (!ok) break;
    }
  }
}

function checkRows(rows: unknown[], issues: Issues): void {
  const long = isLongRows(rows);
  for (let i = 0; i < rows.length && !issues.full(); i++) {
    const row = rows[i];
    if (!isRecord(row)) {
      issues.add([i], `expected a row object, got ${describe(row)}`);
      return;
    }
    if (long) {
      if (!checkValue(row.value, [i, "value"], issues)) return;
      continue;
    }
    for (const [key, v] of Object.entries(row)) {
      const problem = isAxisName(key) ? null : wideCellProblem(key, v);
      if (problem) {
        issues.add([i, key], problem);
        return;
      }
    }
  }
}

function checkContent(metrics: Record<string, unknown>, issues: Issues): void {
  const format = metrics.format as string;
  if (!(CONTENT_FORMATS as readonly string[]).includes(format)) {
    issues.add(["format"], `unknown format ${describe(format)}; expected one of ${CONTENT_FORMATS.join(", ")}`);
  } else if (format === "tfevents") {
    if (Array.isArray(metrics.files)) {
      metrics.files.forEach((f, i) => {
        if (!isRecord(f) || typeof f.content_base64 !== "string") issues.add(["files", i, "content_base64"], "expected the event file, base64-encoded");
        else if (f.path !== undefined && typeof f.path !== "string") issues.add(["files", i, "path"], "expected the file's path in the log folder");
      });
    } else if (typeof metrics.content_base64 !== "string") issues.add(["content_base64"], "expected the event file, base64-encoded (or files: [{path, content_base64}])");
  } else if (format === "catboost_tsv") {
    if (!Array.isArray(metrics.files)) issues.add(["files"], "expected [{path, content}] of CatBoost's learn_error.tsv and test_error.tsv");
    else
      metrics.files.forEach((f, i) => {
        if (!isRecord(f) || typeof f.content !== "string") issues.add(["files", i, "content"], "expected the TSV text");
        else if (typeof f.path !== "string") issues.add(["files", i, "path"], "expected the file's name (learn_error.tsv or test_error.tsv)");
      });
  } else if (format === "hf_trainer_state") {
    if (!isRecord(metrics.content) && typeof metrics.content !== "string") issues.add(["content"], "expected the trainer_state.json object");
  } else if (typeof metrics.content !== "string") {
    issues.add(["content"], `expected the ${format} text, got ${describe(metrics.content)}`);
  }
}

/** Structural check of `metrics` in any of its shapes; formats inside text are left to the parser. */
function checkMetrics(v: unknown, issues: Issues): void {
  if (Array.isArray(v)) checkRows(v, issues);
  else if (!isRecord(v)) issues.add([], `expected an object or a list of rows, got ${describe(v)}`);
  else if (typeof v.format === "string") checkContent(v, issues);
  else if ("log_history" in v) {
    if (!Array.isArray(v.log_history)) issues.add(["log_history"], "expected the list of log entries");
  } else checkArrays(v, issues);
}

/** Legacy column map: `key`/`metric` columns hold names, the others numbers. */
function checkColumns(columns: Record<string, unknown[]>, issues: Issues): void {
  for (const [name, values] of Object.entries(columns)) {
    if (/^(?:key|metric|name|tag|run_id|timestamp)$/i.test(name) || issues.full()) continue;
    for (let i = 0; i < values.length; i++) if (!checkValue(values[i], [name, i], issues)) break;
  }
}

/** `metadata.status` and the run's expected length, read by the detectors of a run still going. */
function checkMetadata(m: Record<string, unknown>, issues: Issues): void {
  if (m.status !== undefined && m.status !== null && !(typeof m.status === "string" && (RUN_STATUSES as readonly string[]).includes(m.status.toLowerCase()))) {
    issues.add(["status"], `expected one of ${RUN_STATUSES.join(", ")}, got ${describe(m.status)}`);
  }
  for (const key of ["expected_total_steps", "max_epochs"]) {
    const v = m[key];
    if (v !== undefined && v !== null && !(typeof v === "number" && Number.isFinite(v) && v > 0)) issues.add([key], `expected a positive number, got ${describe(v)}`);
  }
}

function refineWith<T>(check: (v: T, issues: Issues) => void) {
  return (v: T, ctx: z.RefinementCtx) => {
    let n = 0;
    check(v, {
      add: (path, message) => {
        if (n++ < MAX_ISSUES) ctx.addIssue({ code: "custom", path, message });
      },
      full: () => n >= MAX_ISSUES,
    });
  };
}

/**
 * Structural shape of `training_artifacts` (ARTIFACTS.md): permissive about the many metric shapes, but a metric
 * value that is not a number is rejected with its path (`metrics.val_loss[3]`, `metrics[12].value`).
 */
export const TrainingArtifactSchema = z.looseObject({
  metrics: z.unknown().superRefine(refineWith(checkMetrics)).nullish(),
  metrics_values: z.record(z.string(), z.array(z.unknown())).superRefine(refineWith(checkColumns)).nullish(),
  metrics_path: z.string().nullish(),
  params: z.record(z.string(), z.unknown()).nullish(),
  logs: z.union([z.array(z.string()), z.string()]).nullish(),
  metadata: z.record(z.string(), z.unknown()).superRefine(refineWith(checkMetadata)).nullish(),
});
export type TrainingArtifact = z.infer<typeof TrainingArtifactSchema>;
