import { familyOf } from "./dtype.js";
import type { Engine } from "./engine.js";
import type { ColumnDrift } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { doubleLiteral, ident } from "./sql.js";

/** Bin edges of numeric PSI: train deciles (equal-frequency bins, the usual credit-scoring convention). */
const PSI_QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
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
 * Per-column drift from train to test over the columns both files have with the same family, missing values
 * left out: numbers get PSI over train deciles and the two-sample Kolmogorov–Smirnov statistic; booleans and
 * text get PSI over categories and total variation. Time columns are skipped.
 */
export async function columnDrift(
  engine: Engine,
  train: LoadedTable,
  test: LoadedTable,
  unique: (column: string) => number,
): Promise<Record<string, ColumnDrift>> {
  const testTypes = new Map(test.columns.map((c) => [c.name, c.type]));
  const out: Record<string, ColumnDrift> = {};
  for (const col of train.columns) {
    const other = testTypes.get(col.name);
    if (other === undefined) continue;
    const family = familyOf(col.type);
    if (family !== familyOf(other) || family === "temporal") continue;
    if (family === "numeric") {
      const d = await numericDrift(engine, train.table, test.table, col.name);
      if (d) out[col.name] = d;
    } else if (unique(col.name) <= CATEGORICAL_DRIFT_MAX_CATEGORIES) {
      const d = await categoricalDrift(engine, train.table, test.table, col.name);
      if (d) out[col.name] = d;
    }
  }
  return out;
}

async function numericDrift(engine: Engine, train: string, test: string, column: string): Promise<ColumnDrift | null> {
  const c = ident(column);
  const [q] = await engine.rows(`SELECT quantile_cont(${c}::DOUBLE, [${PSI_QUANTILES.join(", ")}]) AS q FROM ${ident(train)}`);
  if (!Array.isArray(q?.q)) return null;
  const edges = [...new Set((q.q as number[]).filter(Number.isFinite))].sort((a, b) => a - b);
  // Bin i holds (edge[i-1], edge[i]]: a value goes to the number of edges strictly below it.
  const bin = `CASE ${edges.map((e, i) => `WHEN ${c}::DOUBLE <= ${doubleLiteral(e)} THEN ${i}`).join(" ")} ELSE ${edges.length} END`;
  const counts = async (table: string) => {
    const rows = await engine.rows(`SELECT ${bin} AS b, count(*) AS n FROM ${ident(table)} WHERE ${c} IS NOT NULL GROUP BY 1`);
    const out = new Array<number>(edges.length + 1).fill(0);
    for (const r of rows) out[Number(r.b)] = Number(r.n);
    return out;
  };
  const [p, r] = [shares(await counts(train)), shares(await counts(test))];
  if (p.every((x) => x === 0) || r.every((x) => x === 0)) return null;
  return { kind: "numeric", psi: psi(p, r), ks: await ksStatistic(engine, train, test, column) };
}

/**
 * Two-sample KS statistic sup |F_train − F_test| over every observed value, exact: both columns are grouped by
 * value and the two empirical CDFs are running sums in value order.
 */
async function ksStatistic(engine: Engine, train: string, test: string, column: string): Promise<number> {
  const c = ident(column);
  const [row] = await engine.rows(
    `WITH v AS (SELECT ${c}::DOUBLE AS x, 1 AS a, 0 AS b FROM ${ident(train)} WHERE ${c} IS NOT NULL
                UNION ALL SELECT ${c}::DOUBLE, 0, 1 FROM ${ident(test)} WHERE ${c} IS NOT NULL),
          g AS (SELECT x, sum(a) AS a, sum(b) AS b FROM v GROUP BY x),
          f AS (SELECT sum(a) OVER w AS ca, sum(b) OVER w AS cb FROM g WINDOW w AS (ORDER BY x ROWS UNBOUNDED PRECEDING))
     SELECT max(abs(ca / (SELECT sum(a) FROM g) - cb / (SELECT sum(b) FROM g))) AS d FROM f`,
  );
  return Number(row?.d ?? 0);
}

async function categoricalDrift(engine: Engine, train: string, test: string, column: string): Promise<ColumnDrift | null> {
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
