import { clip, isRecord, type JsonRecord, toText } from "../../../artifacts/json-values.js";
import { type DeepchecksRead, readDeepchecksResult } from "./deepchecks.js";
import { emptyStated, mergeStated } from "./stated.js";

/** Suite switches of the original Python client's config. */
const SUITE_KEYS = ["train_test_validation", "data_integrity", "model_evaluation"];

/** Whether the artifact is the original client's Deepchecks suite map `{results: {suite: [{header, json_result}]}}`. */
export function isLegacySuiteMap(v: unknown): v is JsonRecord & { results: JsonRecord } {
  return isRecord(v) && isRecord(v.results) && Object.values(v.results).some((list) => Array.isArray(list) && list.some((e) => isRecord(e) && "json_result" in e));
}

export interface LegacySuiteRead extends DeepchecksRead {
  suites: string[];
  skipped: string[];
  datasetName: string | null;
}

/**
 * Reads `{dataset_name, results: {suite_name: [{header, json_result, display_images?, display_txt?}]}, config?}`.
 * `json_result` is a CheckResult JSON (object or string); images are ignored; a short `display_txt` is kept as
 * extra text (it carries counts such as "42.17% (5216 / 12368)").
 */
export function readLegacySuiteMap(map: JsonRecord & { results: JsonRecord }, path: string): LegacySuiteRead {
  const read: DeepchecksRead = { outcomes: [], rowCounts: [], stated: emptyStated() };
  const suites: string[] = [];
  for (const [suite, list] of Object.entries(map.results)) {
    if (!Array.isArray(list)) continue;
    suites.push(suite);
    list.forEach((entry, i) => {
      if (!isRecord(entry)) return;
      const text = toText(entry.display_txt);
      const extra = text && /\d/.test(text) && text.length <= 300 ? clip(text.replace(/\s+/g, " "), 200) : null;
      const r = readDeepchecksResult(entry.json_result, suite, `${path}.results.${suite}[${i}].json_result`, extra);
      read.outcomes.push(...r.outcomes);
      read.rowCounts.push(...r.rowCounts);
      mergeStated(read.stated, r.stated);
    });
  }
  const config = isRecord(map.config) ? map.config : {};
  const skipped = SUITE_KEYS.filter((k) => config[k] === false && !suites.includes(k));
  return { ...read, suites, skipped, datasetName: toText(map.dataset_name) };
}
