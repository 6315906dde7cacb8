import { basename } from "node:path";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { isRecord } from "../../artifacts/json-values.js";
import { catboostSetOf } from "../../nodes/training/parse/boosting.js";
import { readLogSeries } from "../../nodes/training/parse/log-series.js";
import { SeriesBuilder } from "../../nodes/training/parse/series-builder.js";

/** What a text file is, when it holds metrics the service reads beyond CSV and JSON documents. */
export type TextMetrics =
  | { as: "metrics_jsonl"; text: string }
  | { as: "catboost_tsv"; text: string }
  | { as: "log"; text: string }
  | { as: "unrecognized"; reason: string };

/** A JSON-lines file by its name: log.jsonl, metrics.jsonl, anything .jsonl or .ndjson. */
export const JSONL_NAME = /\.(jsonl|ndjson)$/i;
/** Lines of a text file tried as a printed training log before it is judged not to be one. */
const SNIFF_LINES = 2000;

/** Whether the text is JSON lines: every one of its first non-blank lines an object (bare NaN allowed). */
function isJsonLines(text: string): boolean {
  const lines = text.split("\n", 50).map((l) => l.trim()).filter((l) => l !== "");
  // The last line read may be cut by the split's limit or by a writer still at it.
  const whole = lines.length > 1 ? lines.slice(0, -1) : lines;
  return (
    whole.length > 0 &&
    whole.every((l) => {
      try {
        return isRecord(parseTolerantJson(l));
      } catch {
        return false;
      }
    })
  );
}

/**
 * Whether printed training output is in the text: two lines or more in a style nodes/training/parse/log-styles.ts
 * reads (one `lr: 0.001` in a config saved as .txt is no training log).
 */
export function hasLogSeries(text: string): boolean {
  const head = text.split("\n", SNIFF_LINES);
  return readLogSeries(head, new SeriesBuilder()).records >= 2;
}

/**
 * JSON lines and CatBoost's error files by name or content, before the JSON and CSV readers see them (a
 * one-line JSON-lines file would parse as one JSON document); null when the file is neither.
 */
export function classifyMetricsText(relative: string, text: string): TextMetrics | null {
  const name = basename(relative);
  if (JSONL_NAME.test(name)) return isJsonLines(text) ? { as: "metrics_jsonl", text } : { as: "unrecognized", reason: "named .jsonl but its lines are not JSON objects" };
  if (catboostSetOf(relative)) return { as: "catboost_tsv", text };
  if (name === "time_left.tsv") return { as: "unrecognized", reason: "CatBoost's time_left.tsv holds timings, not metrics" };
  if (/^\s*\{/.test(text) && text.trim().includes("\n") && isJsonLines(text)) return { as: "metrics_jsonl", text };
  return null;
}

/** A text file that is no CSV, JSON or known log by name, read as a printed training log when lines of it are one. */
export function classifyPrintedLog(text: string): TextMetrics | null {
  return hasLogSeries(text) ? { as: "log", text } : null;
}

/** CatBoost's learn_error.tsv and test_error.tsv of one catboost_info/ folder, as the request's content format. */
export function catboostMetrics(files: ReadonlyArray<{ relative: string; text: string }>): { format: "catboost_tsv"; files: Array<{ path: string; content: string }> } {
  return { format: "catboost_tsv", files: files.map((f) => ({ path: basename(f.relative), content: f.text })) };
}
