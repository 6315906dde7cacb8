import { familyOf } from "./dtype.js";
import type { Engine } from "./engine.js";
import type { ColumnDrift } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

/** Share given to an empty bin or category, so PSI stays finite (a common choice; documented in docs/). */
export const PSI_FLOOR = 1e-4;
/** Categorical columns with more distinct values than this (either split) get no drift: PSI over ids means nothing. */
export const CATEGORICAL_DRIFT_MAX_CATEGORIES = 1000;

/** Population stability index Σ (q − p) ln(q / p) over matching shares, each floored at PSI_FLOOR. */
export function psi(p: readonly number[], q: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const a = Math.max(p[i]!, PSI_FLOOR);
    const b = Math.max(q[i]!, PSI_FLOOR);
    s += (b - a) * Math.log(b / a);
  }
  return s;
}

/** Total variation distance ½ Σ |p − q|. */
export function totalVariation(p: readonly number[], q: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += Math.abs(p[i]! - q[i]!);
  return s / 2;
}

const shares = (counts: readonly number[]): number[] => {
  const n = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => (n ? c / n : 0));
};

/**
 * Drift from train to test of the boolean and text columns both files have (missing values left out): PSI over
 * categories and total variation. Numeric columns get theirs from their sort (numeric.ts); time columns none.
 */
export async function categoricalDrift(
  engine: Engine,
  train: LoadedTable,
  test: LoadedTable,
  unique: (column: string) => number,
): Promise<Record<string, ColumnDrift>> {
  const testTypes = new Map(test.columns.map((c) => [c.name, c.type]));
  const out: Record<string, ColumnDrift> = {};
  for (const col of train.columns) {
    const other = testTypes.get(col.name);
    const family = familyOf(col.type);
    if (other === undefined || family !== familyOf(other) || family === "numeric" || family === "temporal") continue;
    if (unique(col.name) > CATEGORICAL_DRIFT_MAX_CATEGORIES) continue;
    const d = await categoryShares(engine, train.table, test.table, col.name);
    if (d) out[col.name] = d;
  }
  return out;
}

async function categoryShares(engine: Engine, train: string, test: string, column: string): Promise<ColumnDrift | null> {
  const c = ident(column);
  const rows = await engine.rows(
    `SELECT v, sum(a) AS a, sum(b) AS b FROM (SELECT ${c}::VARCHAR AS v, 1 AS a, 0 AS b FROM ${ident(train)} WHERE ${c} IS NOT NULL
       UNION ALL SELECT ${c}::VARCHAR, 0, 1 FROM ${ident(test)} WHERE ${c} IS NOT NULL) GROUP BY v ORDER BY v`,
  );
  if (rows.length === 0 || rows.length > CATEGORICAL_DRIFT_MAX_CATEGORIES) return null;
  const p = shares(rows.map((r) => Number(r.a)));
  const q = shares(rows.map((r) => Number(r.b)));
  if (p.every((x) => x === 0) || q.every((x) => x === 0)) return null;
  return { kind: "categorical", psi: psi(p, q), total_variation: totalVariation(p, q) };
}
