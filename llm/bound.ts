/** Limits of one shrinking pass over a JSON-like value. */
export interface BoundLimits {
  /** Arrays longer than this are summarized (numbers) or cut to head and tail (anything else). */
  maxItems: number;
  /** Objects with more keys keep the first ones and say how many were left out. */
  maxKeys: number;
  maxString: number;
  /** Deeper values are replaced by a one-line description. */
  maxDepth: number;
  /** Representative points kept from a summarized numeric array. */
  points: number;
}

/** Ever tighter passes; `fitJson` takes the first whose text fits. */
export const BOUND_LEVELS: readonly BoundLimits[] = [
  { maxItems: 40, maxKeys: 60, maxString: 600, maxDepth: 8, points: 12 },
  { maxItems: 20, maxKeys: 40, maxString: 300, maxDepth: 6, points: 8 },
  { maxItems: 10, maxKeys: 24, maxString: 160, maxDepth: 5, points: 5 },
  { maxItems: 5, maxKeys: 12, maxString: 80, maxDepth: 4, points: 3 },
  { maxItems: 2, maxKeys: 6, maxString: 40, maxDepth: 3, points: 2 },
];

/** Six significant digits are plenty for a model and keep long floats from eating the budget. */
function roundNumber(n: number): number | string {
  if (!Number.isFinite(n)) return String(n);
  return Number.isInteger(n) ? n : Number(n.toPrecision(6));
}

function isNumberList(items: ArrayLike<unknown>): items is ArrayLike<number> {
  for (let i = 0; i < items.length; i++) if (typeof items[i] !== "number") return false;
  return true;
}

/** Statistics and evenly spaced [index, value] points of a long numeric array, in one pass. */
function summarizeNumbers(values: ArrayLike<number>, points: number): Record<string, unknown> {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let finite = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    finite++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const last = values.length - 1;
  const picks = new Set<number>();
  for (let k = 0; k < points; k++) picks.add(Math.round((k * last) / Math.max(1, points - 1)));
  return {
    summarized_array: values.length,
    min: finite ? roundNumber(min) : null,
    max: finite ? roundNumber(max) : null,
    mean: finite ? roundNumber(sum / finite) : null,
    non_finite: values.length - finite,
    points: [...picks].map((i) => [i, roundNumber(values[i]!)]),
  };
}

function boundArray(items: ArrayLike<unknown>, limits: BoundLimits, depth: number): unknown {
  if (items.length > limits.maxItems && isNumberList(items)) return summarizeNumbers(items, limits.points);
  if (items.length <= limits.maxItems) return Array.from(items, (v) => boundAt(v, limits, depth + 1));
  const head = Math.ceil(limits.maxItems / 2);
  const tail = limits.maxItems - head;
  const out: unknown[] = [];
  for (let i = 0; i < head; i++) out.push(boundAt(items[i], limits, depth + 1));
  out.push(`… ${items.length - head - tail} more items …`);
  for (let i = items.length - tail; i < items.length; i++) out.push(boundAt(items[i], limits, depth + 1));
  return out;
}

function boundObject(entries: Iterable<[string, unknown]>, size: number, limits: BoundLimits, depth: number): unknown {
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const [key, value] of entries) {
    if (kept === limits.maxKeys) break;
    if (value === undefined || typeof value === "function") continue;
    out[key] = boundAt(value, limits, depth + 1);
    kept++;
  }
  if (size > kept) out["…"] = `${size - kept} more keys`;
  return out;
}

function boundAt(value: unknown, limits: BoundLimits, depth: number): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "number":
      return roundNumber(value);
    case "string":
      return value.length > limits.maxString ? `${value.slice(0, limits.maxString)}… (+${value.length - limits.maxString} chars)` : value;
    case "boolean":
      return value;
    case "bigint":
      return value.toString();
    case "object":
      break;
    default:
      return null;
  }
  if (value instanceof Date) return value.toISOString();
  const isList = Array.isArray(value) || ArrayBuffer.isView(value) || value instanceof Set;
  const size = isList
    ? value instanceof Set ? value.size : (value as ArrayLike<unknown>).length
    : value instanceof Map ? value.size : Object.keys(value).length;
  if (depth >= limits.maxDepth) return isList ? `[${size} items]` : `{${size} keys}`;
  if (value instanceof Set) return boundArray([...value], limits, depth);
  if (isList) return boundArray(value as ArrayLike<unknown>, limits, depth);
  if (value instanceof Map) return boundObject(([...value.entries()] as [unknown, unknown][]).map(([k, v]) => [String(k), v]), size, limits, depth);
  return boundObject(Object.entries(value), size, limits, depth);
}

/**
 * A JSON-safe copy of `value` within `limits`: long numeric arrays become statistics with a few representative
 * points, other long arrays keep their head and tail, long strings are cut, deep values described. Each pass
 * is linear in the input size and never serializes the raw value.
 */
export function boundValue(value: unknown, limits: BoundLimits): unknown {
  return boundAt(value, limits, 0);
}

/**
 * JSON text written into a prompt and the value it shows (what JSON.parse of the text gives back): the grounding
 * pass reads the value as it was before it was written, never our own text back.
 */
export interface Shown {
  text: string;
  value: unknown;
}

/**
 * JSON text of `value` in at most `maxChars` characters: the first level of BOUND_LEVELS that fits, and as a
 * last resort the tightest level's text cut to size (then a JSON string, so the result always parses).
 */
export function fitJson(value: unknown, maxChars: number): Shown {
  let text = "null";
  for (const limits of BOUND_LEVELS) {
    const bounded = boundValue(value, limits);
    text = JSON.stringify(bounded);
    if (text.length <= maxChars) return { text, value: bounded };
  }
  const marker = "… (cut to the prompt budget)";
  let keep = Math.max(0, maxChars - marker.length - 2);
  let cut = JSON.stringify(text.slice(0, keep) + marker);
  // Escaping lengthens the string literal: shorten the kept part until the literal fits.
  while (cut.length > maxChars && keep > 0) {
    keep = Math.max(0, keep - (cut.length - maxChars));
    cut = JSON.stringify(text.slice(0, keep) + marker);
  }
  return cut.length <= maxChars ? { text: cut, value: text.slice(0, keep) + marker } : { text: "null", value: null };
}
