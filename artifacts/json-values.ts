import { parseTolerantJson } from "./tolerant-json.js";

/** Readers for loosely typed JSON values, shared by the dataset and checks parsers. */

export type JsonRecord = Record<string, unknown>;

/** A plain JSON object (not an array, not null). */
export function isRecord(v: unknown): v is JsonRecord {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Arrays known to hold numbers and nulls only, so checks of their elements can be skipped. */
const numberArrays = new WeakSet<readonly unknown[]>();

/**
 * Records that `array` holds numbers and nulls only, as its maker knows (workers/number-columns.ts rebuilds a
 * large body's number arrays from typed columns): request checks then skip its elements. It is not written to after.
 */
export function markNumberArray(array: readonly unknown[]): void {
  numberArrays.add(array);
}

/** Whether `array` was marked by markNumberArray: numbers and nulls only. */
export function isNumberArray(array: readonly unknown[]): boolean {
  return numberArrays.has(array);
}

const NON_FINITE_STRINGS: Record<string, number> = {
  nan: Number.NaN,
  infinity: Number.POSITIVE_INFINITY,
  "+infinity": Number.POSITIVE_INFINITY,
  "-infinity": Number.NEGATIVE_INFINITY,
  inf: Number.POSITIVE_INFINITY,
  "-inf": Number.NEGATIVE_INFINITY,
};

/**
 * A number from a JSON number, a numeric string (MLflow sends "NaN"/"Infinity" as strings; pandas can write
 * "inf") or a jsonpickled numpy scalar. NaN and ±Infinity are kept, because detectors look for them; anything
 * else is null.
 */
export function toNumber(v: unknown): number | null {
  if (typeof v === "number") return v;
  // jsonpickle (Deepchecks to_json) writes numpy scalars as {"dtype": "float64", "value": 0.04}.
  if (isRecord(v) && typeof v.dtype === "string" && "value" in v) return toNumber(v.value);
  if (typeof v === "boolean") return null;
  if (typeof v !== "string") return null;
  const text = v.trim();
  if (text === "") return null;
  const special = NON_FINITE_STRINGS[text.toLowerCase()];
  if (special !== undefined) return special;
  const n = Number(text);
  return Number.isNaN(n) ? null : n;
}

/** A finite number, or null. */
export function toFinite(v: unknown): number | null {
  const n = toNumber(v);
  return n !== null && Number.isFinite(n) ? n : null;
}

/** A non-empty trimmed string, or null. */
export function toText(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const t = v.trim();
  return t === "" ? null : t;
}

/** A value that may be a JSON document encoded in a string (MLflow schema/profile, Deepchecks DataFrames). */
export function decodeJsonString(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return v;
  try {
    return parseTolerantJson(t);
  } catch {
    return v;
  }
}

/** Shortens text for evidence and digests. */
export function clip(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Text on one line: upstream messages (a server's error body, a stack in a message) may hold line breaks. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** Formats a fraction as a percentage with sensible precision. */
export function pct(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)} %`;
}

/** What `toLocaleString("en-US")` formats with, built once: that call builds a new ICU formatter each time. */
const WITH_SEPARATORS = new Intl.NumberFormat("en-US");

/** Formats a number for text: integers with separators, others with up to 3 significant decimals. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return WITH_SEPARATORS.format(n);
  const abs = Math.abs(n);
  return abs >= 100 ? n.toFixed(1) : abs >= 1 ? n.toFixed(2) : n.toPrecision(3).replace(/0+$/, "").replace(/\.$/, "");
}

/** "a, b, c and 4 more" for descriptions. */
export function listNames(names: readonly string[], max = 5): string {
  const quoted = names.map((n) => `"${n}"`);
  if (quoted.length <= max) return quoted.join(", ");
  return `${quoted.slice(0, max).join(", ")} and ${quoted.length - max} more`;
}
