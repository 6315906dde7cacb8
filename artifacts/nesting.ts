import { Float64Column } from "./float64-column.js";
import { formatPath } from "./format-path.js";
import { isNumberArray } from "./json-values.js";

/**
 * Deepest nesting a request may have. Real artifacts nest a few dozen levels at most (a Deepchecks suite inside
 * a request is about 15); downstream code (LangGraph's Send payload copy, zod, JSON) recurses per level and
 * overflows the stack somewhere past a thousand, so the limit sits far below that.
 */
export const MAX_NESTING = 256;

/**
 * The path of the first value nested deeper than `max` levels, or null. Iterative, so the check itself cannot
 * overflow the stack it protects.
 */
export function findExcessiveNesting(value: unknown, max: number = MAX_NESTING): PropertyKey[] | null {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (v === null || typeof v !== "object" || v instanceof Float64Column) continue; // a column holds numbers only
    if (path.length >= max) return path;
    if (Array.isArray(v)) {
      if (isNumberArray(v)) continue; // numbers and nulls only: nothing nests in it
      for (let i = 0; i < v.length; i++) if (v[i] !== null && typeof v[i] === "object") stack.push({ value: v[i], path: [...path, i] });
    } else {
      for (const [k, child] of Object.entries(v)) if (child !== null && typeof child === "object") stack.push({ value: child, path: [...path, k] });
    }
  }
  return null;
}

/**
 * A long path made readable: where a run of one repeated key or index begins (the usual shape of runaway nesting,
 * `[0][0][0]…`), else its first `keep` segments; "…" marks what was cut.
 */
export function shortPath(path: readonly PropertyKey[], keep = 6): string {
  let runStart = path.length;
  while (runStart > 1 && path[runStart - 1] === path[path.length - 1]) runStart--;
  const cut = path.length - runStart >= 8 ? runStart : Math.min(keep, path.length);
  return cut < path.length ? `${formatPath(path.slice(0, cut))}…` : formatPath(path);
}
