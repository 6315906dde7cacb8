import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { isRecord } from "../../../artifacts/json-values.js";
import { readWideRows } from "./rows.js";
import type { SeriesBuilder } from "./series-builder.js";

/** What a JSON-lines log held: rows read, and lines that were not a JSON object (a half-written last line, a print). */
export interface JsonLinesRead {
  rows: number;
  skipped: number;
}

/**
 * One JSON object per line, as custom loops write them with `json.dumps` (bare NaN/Infinity included) into
 * log.jsonl or metrics.jsonl, each a wide row; nested objects (`{"train": {"loss": …}}`) become `train/loss`.
 * Lines that are no JSON object are counted, not fatal: a run still writing leaves its last line half-done.
 */
export function readJsonLines(text: string, out: SeriesBuilder): JsonLinesRead {
  const rows: Record<string, unknown>[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t === "") continue;
    const value = t.startsWith("{") ? parseOrUndefined(t) : undefined;
    if (isRecord(value)) rows.push(flatten(value));
    else skipped++;
  }
  readWideRows(rows, out);
  return { rows: rows.length, skipped };
}

function parseOrUndefined(line: string): unknown {
  try {
    return parseTolerantJson(line);
  } catch {
    return undefined;
  }
}

/** `{"train": {"loss": 1}}` → `{"train/loss": 1}`; lists and deeper text are left for the row reader to judge. */
function flatten(row: Record<string, unknown>, prefix = "", into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, v] of Object.entries(row)) {
    if (isRecord(v)) flatten(v, `${prefix}${key}/`, into);
    else if (!Array.isArray(v)) into[prefix + key] = v;
  }
  return into;
}
