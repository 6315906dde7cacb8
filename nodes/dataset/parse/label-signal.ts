import type { LabelSignalFact, TimeSplitFact } from "../model.js";
import { isRecord, toFinite, toText } from "../../../artifacts/json-values.js";

/**
 * `label_signal: {column: {method, train, test?, null_sd, test_null_sd?, monotonic?}}` as the ml-diagnose client
 * writes it (client/dataset/label-signal.ts): how well each feature alone predicts the label, per split, on
 * Deepchecks' PPS scale (0 = the majority label, 1 = exact). Entries without a finite train score are skipped.
 */
export function readLabelSignals(value: unknown, path: string): LabelSignalFact[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([column, s]) => {
    if (!isRecord(s)) return [];
    const train = toFinite(s.train);
    if (train === null) return [];
    return [
      {
        column,
        method: toText(s.method) ?? "score",
        train,
        test: toFinite(s.test),
        nullSd: toFinite(s.null_sd),
        testNullSd: toFinite(s.test_null_sd),
        monotonic: typeof s.monotonic === "boolean" ? s.monotonic : null,
        path: `${path}.${column}`,
      },
    ];
  });
}

/** `time_split: {column, stated, train_max, test_min, test_before_train_end: {count, fraction}, …}`, or null. */
export function readTimeSplit(value: unknown, path: string): TimeSplitFact | null {
  if (!isRecord(value) || !isRecord(value.test_before_train_end)) return null;
  const column = toText(value.column);
  const fraction = toFinite(value.test_before_train_end.fraction);
  if (!column || fraction === null) return null;
  return {
    column,
    stated: value.stated === true,
    trainMax: toText(value.train_max),
    testMin: toText(value.test_min),
    count: toFinite(value.test_before_train_end.count),
    fraction,
    path,
  };
}
