import type { StatedColumn, StatedFacts } from "../model.js";

/** Facts without a verdict, none yet. */
export function emptyStated(): StatedFacts {
  return { columns: [], duplicates: null, target: null };
}

/** The stated column `name`, created on first use. */
export function statedColumn(stated: StatedFacts, name: string, path: string): StatedColumn {
  let c = stated.columns.find((x) => x.name === name);
  if (!c) stated.columns.push((c = { name, rows: null, missing: null, missingFraction: null, unique: null, std: null, path }));
  return c;
}

/** Adds one report's stated facts to the artifact's: columns by name (numbers already known are kept), the first duplicates and target. */
export function mergeStated(into: StatedFacts, from: StatedFacts): void {
  for (const c of from.columns) {
    const seen = into.columns.find((x) => x.name === c.name);
    if (!seen) into.columns.push({ ...c });
    else for (const k of ["rows", "missing", "missingFraction", "unique", "std"] as const) seen[k] ??= c[k];
  }
  into.duplicates ??= from.duplicates;
  into.target ??= from.target;
}
