import type { Engine } from "./engine.js";
import { doubleLiteral, ident } from "./sql.js";

/** Quantiles a numeric column needs: the quartiles of describe() and the deciles that bin PSI. */
const QUARTILES = [0.25, 0.5, 0.75] as const;
const DECILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;

/** Everything of a numeric column that comes from its values in order, exact. */
export interface NumericProfile {
  /** Distinct count and top value, when the values were grouped (not for near-unique columns). */
  distinct: { unique: number; top: string | null; topFrequency: number | null } | null;
  quartiles: [number, number, number];
  /** With a test file: PSI over train deciles and the two-sample KS statistic. */
  drift: { psi: number; ks: number } | null;
}

/** Linear interpolation as numpy writes it (from the nearer end), so quantiles agree with pandas to the last bits. */
function lerp(a: number, b: number, t: number): number {
  const d = b - a;
  return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

/** 0-based positions of the order statistics a linear-interpolation quantile of n values reads. */
function positions(n: number, q: number): { lo: number; hi: number; t: number } {
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  return { lo, hi: Math.min(lo + 1, n - 1), t: h - lo };
}

/**
 * One sort per numeric column serves its distinct count, top value, quartiles and (with a test file) PSI bins and
 * KS: the column's distinct values with their train and test counts, in order, with running sums. The k-th
 * order statistic is then the first value whose running train count exceeds k, the KS statistic the largest gap
 * between the two running shares, and a PSI bin count the running count at its upper edge. DuckDB's
 * quantile_cont was the slowest step of the whole computation (about 5× this sort per column).
 * A near-unique column (`grouped` false) is sorted as it is, without grouping: hashing a million distinct values
 * cost more than the sort itself. Its running sums then step through tied rows one at a time, so KS is read only
 * at the last row of each value (`last`; a RANGE frame over peers gives the same and was 1.3–1.8× slower); its
 * distinct count and top value come from distinct.ts.
 */
export async function numericProfile(
  engine: Engine,
  column: string,
  train: { table: string; count: number },
  test: { table: string; count: number } | null,
  psi: (p: number[], q: number[]) => number,
  grouped: boolean,
): Promise<NumericProfile> {
  const c = ident(column);
  const values = test
    ? `SELECT ${c} AS x, 1 AS a, 0 AS b FROM ${ident(train.table)} WHERE ${c} IS NOT NULL UNION ALL SELECT ${c}, 0, 1 FROM ${ident(test.table)} WHERE ${c} IS NOT NULL`
    : `SELECT ${c} AS x, 1 AS a, 0 AS b FROM ${ident(train.table)} WHERE ${c} IS NOT NULL`;
  const dist = ident(`dist_${train.table}`);
  await engine.run(
    grouped
      ? `CREATE OR REPLACE TEMP TABLE ${dist} AS SELECT x, a, sum(a) OVER w AS ca, sum(b) OVER w AS cb, true AS last
         FROM (SELECT x, sum(a) AS a, sum(b) AS b FROM (${values}) GROUP BY x) WINDOW w AS (ORDER BY x ROWS UNBOUNDED PRECEDING)`
      : `CREATE OR REPLACE TEMP TABLE ${dist} AS SELECT x, sum(a) OVER w AS ca, sum(b) OVER w AS cb, lead(x) OVER w IS DISTINCT FROM x AS last
         FROM (${values}) WINDOW w AS (ORDER BY x ROWS UNBOUNDED PRECEDING)`,
  );
  try {
    const n = train.count;
    const wanted = [...QUARTILES, ...(test ? DECILES : [])].map((q) => positions(n, q));
    const ks = [...new Set(wanted.flatMap((p) => [p.lo, p.hi]))];
    const distinctSql = grouped ? `count(*) FILTER (WHERE a > 0) AS unique, max(a) AS top_n, min(x) FILTER (WHERE a = (SELECT max(a) FROM ${dist}))::VARCHAR AS top, ` : "";
    const [row] = await engine.rows(`SELECT ${distinctSql}${ks.map((k, i) => `min(x) FILTER (WHERE ca > ${k})::DOUBLE AS k${i}`).join(", ")} FROM ${dist}`);
    const at = new Map(ks.map((k, i) => [k, Number(row?.[`k${i}`])]));
    const quantile = (p: { lo: number; hi: number; t: number }) => lerp(at.get(p.lo)!, at.get(p.hi)!, p.t);
    const quartiles = wanted.slice(0, 3).map(quantile) as [number, number, number];
    const distinct = grouped ? { unique: Number(row?.unique ?? 0), top: row?.top == null ? null : String(row.top), topFrequency: Number(row?.top_n ?? 0) } : null;
    const profile: NumericProfile = { distinct, quartiles, drift: null };
    if (test && test.count > 0) {
      const edges = [...new Set(wanted.slice(3).map(quantile).filter(Number.isFinite))].sort((a, b) => a - b);
      const [cum] = await engine.rows(
        `SELECT ${edges.map((e, i) => `coalesce(max(ca) FILTER (WHERE x <= ${doubleLiteral(e)}), 0) AS a${i}, coalesce(max(cb) FILTER (WHERE x <= ${doubleLiteral(e)}), 0) AS b${i}`).join(", ")},
         max(abs(ca / ${n} - cb / ${test.count})) FILTER (WHERE last) AS ks FROM ${dist}`,
      );
      const bins = (side: "a" | "b", total: number) => {
        const upTo = edges.map((_, i) => Number(cum?.[`${side}${i}`] ?? 0));
        return [...upTo, total].map((v, i) => (v - (i === 0 ? 0 : upTo[i - 1]!)) / total);
      };
      profile.drift = { psi: psi(bins("a", n), bins("b", test.count)), ks: Number(cum?.ks ?? 0) };
    }
    return profile;
  } finally {
    await engine.run(`DROP TABLE IF EXISTS ${dist}`);
  }
}
