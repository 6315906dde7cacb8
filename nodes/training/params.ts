/** Reading hyperparameters the run logged (strings, as MLflow stores them). */

/** The first of several param names that holds a finite number. */
export function paramNumber(params: Record<string, string>, ...names: string[]): number | null {
  for (const name of names) {
    const v = findParam(params, name);
    if (v === undefined) continue;
    const n = Number(v.trim());
    if (v.trim() !== "" && Number.isFinite(n)) return n;
  }
  return null;
}

/** The first of several param names that holds a boolean (True/False, true/1/0, yes/no). */
export function paramFlag(params: Record<string, string>, ...names: string[]): boolean | null {
  for (const name of names) {
    const v = findParam(params, name)?.trim().toLowerCase();
    if (v === undefined) continue;
    if (["true", "1", "yes", "on"].includes(v)) return true;
    if (["false", "0", "no", "off", "none", ""].includes(v)) return false;
  }
  return null;
}

/** The first of several param names that is set, as text. */
export function paramText(params: Record<string, string>, ...names: string[]): string | null {
  for (const name of names) {
    const v = findParam(params, name);
    if (v !== undefined && v.trim() !== "" && v !== "None") return v;
  }
  return null;
}

/**
 * Each params object's values by every name a lookup may match, lowercased: the whole key and each part of it after
 * a "." or "/" ("trainer.max_steps" → "trainer.max_steps", "max_steps"), the first key in order winning. Detectors
 * look params up a few hundred times per run (many on each prefix of the conclusive-step bisection); params are not
 * changed once parsed.
 */
const indexes = new WeakMap<Record<string, string>, Map<string, string>>();

function indexOf(params: Record<string, string>): Map<string, string> {
  let index = indexes.get(params);
  if (index) return index;
  index = new Map();
  for (const [k, v] of Object.entries(params)) {
    const key = k.toLowerCase();
    for (let at = 0; at >= 0; at = nextPart(key, at)) {
      const name = key.slice(at);
      if (!index.has(name)) index.set(name, v);
    }
  }
  indexes.set(params, index);
  return index;
}

/** Where the part after the next "." or "/" at or after `from` begins, or -1. */
function nextPart(key: string, from: number): number {
  for (let i = from; i < key.length; i++) {
    const c = key[i];
    if (c === "." || c === "/") return i + 1;
  }
  return -1;
}

/** Case-insensitive lookup that also matches nested names such as "trainer.max_steps" or "optimizer/lr". */
function findParam(params: Record<string, string>, name: string): string | undefined {
  if (name in params) return params[name];
  return indexOf(params).get(name.toLowerCase());
}
