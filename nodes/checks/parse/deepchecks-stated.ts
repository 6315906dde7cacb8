import { decodeJsonString, isRecord, type JsonRecord, toFinite } from "../../../artifacts/json-values.js";
import type { StatedFacts } from "../model.js";
import { statedColumn } from "./stated.js";

const NULL_SHARE_KEY = "Percent of nulls in sample";

/**
 * PercentOfNulls' DataFrame: `{column: {share}}` (index orient), `{share: {column: x}}` (columns orient), or the
 * records orient `to_json()` writes, which drops the column names: those columns are named by position.
 */
function nullShares(value: unknown): Array<[string, number]> {
  const v = decodeJsonString(value);
  if (Array.isArray(v)) {
    return v.flatMap((row, i) => {
      const share = isRecord(row) ? toFinite(row[NULL_SHARE_KEY]) : null;
      return share !== null ? [[`column ${i + 1} of ${v.length} (Deepchecks to_json() drops the names)`, share] as [string, number]] : [];
    });
  }
  if (!isRecord(v)) return [];
  const byColumn: JsonRecord = isRecord(v[NULL_SHARE_KEY]) ? v[NULL_SHARE_KEY] : Object.fromEntries(Object.entries(v).map(([k, row]) => [k, isRecord(row) ? row[NULL_SHARE_KEY] : null]));
  return Object.entries(byColumn).flatMap(([name, x]) => (toFinite(x) !== null ? [[name, toFinite(x)!] as [string, number]] : []));
}

/** Mixed Nulls: `{n_samples, columns: {column: {null kind: {count, percent}}}}`, summed per column. */
function readMixedNulls(value: JsonRecord, path: string, into: StatedFacts): void {
  const rows = toFinite(value.n_samples);
  if (!isRecord(value.columns)) return;
  for (const [name, kinds] of Object.entries(value.columns)) {
    if (!isRecord(kinds)) continue;
    const missing = Object.values(kinds).reduce<number>((n, k) => n + (isRecord(k) ? toFinite(k.count) ?? 0 : 0), 0);
    const c = statedColumn(into, name, path);
    c.rows ??= rows;
    c.missing ??= missing;
    c.missingFraction ??= rows ? missing / rows : null;
  }
}

/**
 * Data facts a Deepchecks check states (DataDuplicates, PercentOfNulls, IsSingleValue run without a condition;
 * Mixed Nulls' counts, whose condition judges the kinds of null and not their share), for the dataset thresholds.
 * A check with a condition has a verdict, and the verdict is what counts.
 */
export function readDeepchecksStated(checkKey: string, raw: unknown, hasCondition: boolean, path: string, into: StatedFacts): void {
  const value = decodeJsonString(raw);
  if (checkKey === "mixed nulls" && isRecord(value)) return readMixedNulls(value, path, into);
  if (hasCondition) return;
  if (checkKey === "data duplicates") {
    const share = toFinite(value);
    if (share !== null) into.duplicates ??= { count: null, fraction: share, path };
  } else if (checkKey === "percent of nulls") {
    for (const [name, share] of nullShares(value)) statedColumn(into, name, path).missingFraction ??= share;
  } else if (checkKey === "is single value" && isRecord(value)) {
    for (const [name, n] of Object.entries(value)) {
      if (toFinite(n) !== null) statedColumn(into, name, path).unique ??= toFinite(n);
    }
  }
}
