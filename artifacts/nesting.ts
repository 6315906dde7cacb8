import { Float64Column } from "./float64-column.js";
import { formatPath } from "./format-path.js";
import { isNumberArray } from "./json-values.js";

/**
 * Deepest nesting a request may have. Real artifacts nest a few dozen levels at most (a Deepchecks suite inside
 * a request is about 15); downstream code (LangGraph's Send payload copy, zod, JSON) recurses per level and
 * overflows the stack somewhere past a thousand, so the limit sits far below that.
 */
export const MAX_NESTING = 256;

/** A value the nesting walk has still to look into, with the way back to the root (a path is built only for a refusal). */
interface Pending {
  value: object;
  key: PropertyKey;
  depth: number;
  parent: Pending | null;
}

/** Whether a value can hold further levels: an object or array, but not a column (it holds numbers only). */
const nests = (v: unknown): v is object => v !== null && typeof v === "object" && !(v instanceof Float64Column);

/**
 * The path of the first value nested deeper than `max` levels, or null. Iterative, so the check itself cannot
 * overflow the stack it protects. It runs on every request body, so it keeps one small record per object or
 * array (no copy of the path down to it, no key-value pairs) and builds a path only for the one it refuses.
 */
export function findExcessiveNesting(value: unknown, max: number = MAX_NESTING): PropertyKey[] | null {
  if (!nests(value)) return null;
  const stack: Pending[] = [{ value, key: "", depth: 0, parent: null }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at.depth >= max) return pathOf(at);
    const v = at.value;
    const depth = at.depth + 1;
    if (Array.isArray(v)) {
      if (isNumberArray(v)) continue; // numbers and nulls only: nothing nests in it
      for (let i = 0; i < v.length; i++) if (nests(v[i])) stack.push({ value: v[i] as object, key: i, depth, parent: at });
    } else {
      for (const key of Object.keys(v)) {
        const child = (v as Record<string, unknown>)[key];
        if (nests(child)) stack.push({ value: child, key, depth, parent: at });
      }
    }
  }
  return null;
}

/** The keys and indices from the root down to a pending value. */
function pathOf(at: Pending): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let p: Pending | null = at; p.parent; p = p.parent) path.push(p.key);
  return path.reverse();
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
