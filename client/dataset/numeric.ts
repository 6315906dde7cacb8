import type { Engine } from "./engine.js";
import { doubleLiteral, ident } from "./sql.js";

/** Quantiles a numeric column needs: the quartiles of describe() and the deciles that bin PSI. */
const QUARTILES = [0.25, 0.5, 0.75] as const;
const DECILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;

/**
 * Above this many values, a near-unique column that no drift needs sorted (no test file) gets estimated quartiles
 * from a sample instead of exact ones from a sort of every value.
 */
export const QUANTILE_EXACT_BOUND = 1_000_000;
/** Rows of the sample the estimate reads (at least this many: every ⌊n / this⌋-th row by a hash of its position). */
const QUANTILE_SAMPLE_ROWS = 2 ** 18;
/**
 * Documented bound of an estimated quartile: it lies between the exact quantiles at q − ε and q + ε. By the
 * Dvoretzky–Kiefer–Wolfowitz inequality (Massart's constant), a sample of m ≥ 2^18 rows misses this with
 * probability at most 2·exp(−2mε²) ≈ 4·10⁻⁶.
 */
export const QUANTILE_ESTIMATE_RANK_ERROR = 0.005;

/** Everything of a numeric column that comes from its values in order. */
export interface NumericProfile {
  /** Distinct count and top value, when the values were grouped (not for near-unique columns). */
  distinct: { unique: number; top: string | null; topFrequency: number | null } | null;
  quartiles: [number, number, number];
  /** The quartiles are a sample's (QUANTILE_ESTIMATE_RANK_ERROR), not exact. */
  quartilesEstimated: boolean;
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

type Side = { table: string; count: number };

/** Shares of the PSI bins from the running counts at each upper edge and the total. */
function binShares(upTo: number[], total: number): number[] {
  return [...upTo, total].map((v, i) => (v - (i === 0 ? 0 : upTo[i - 1]!)) / total);
}

/** Non-missing values of both splits, each row marked a = 1 (train) or b = 1 (test). */
function splitValues(c: string, train: Side, test: Side | null): string {
  const own = `SELECT ${c} AS x, 1 AS a, 0 AS b FROM ${ident(train.table)} WHERE ${c} IS NOT NULL`;
  return test ? `${own} UNION ALL SELECT ${c}, 0, 1 FROM ${ident(test.table)} WHERE ${c} IS NOT NULL` : own;
}

/**
 * Exact order statistics, and with a test file PSI bins and KS, of one numeric column. A column with repeated
 * values is grouped: its distinct values with their train and test counts, in order, with running sums, which also
 * give its distinct count and top value. The k-th order statistic is then the first value whose running train
 * count exceeds k, the KS statistic the largest gap between the two running shares, and a PSI bin count the
 * running count at its upper edge. DuckDB's quantile_cont was the slowest step of the whole computation (about
 * 5× this per column). A near-unique column (`grouped` false) is sorted as it is (sortedProfile), or, above
 * QUANTILE_EXACT_BOUND values with nothing else needing the sort, gets estimated quartiles (sampledProfile).
 */
export async function numericProfile(
  engine: Engine,
  column: string,
  train: Side,
  test: Side | null,
  psi: (p: number[], q: number[]) => number,
  grouped: boolean,
): Promise<NumericProfile> {
  if (grouped) return groupedProfile(engine, column, train, test, psi);
  if (!test && train.count > QUANTILE_EXACT_BOUND) return sampledProfile(engine, column, train);
  return sortedProfile(engine, column, train, test, psi);
}

/**
 * Distinct values with their train (a) and test (b) counts: each split grouped on its own and the two small results
 * joined, which took a third of the time of grouping both splits' rows marked and unioned.
 */
function groupedCounts(c: string, train: Side, test: Side | null): string {
  const counts = (side: Side) => `SELECT ${c} AS x, count(*) AS n FROM ${ident(side.table)} WHERE ${c} IS NOT NULL GROUP BY ${c}`;
  if (!test) return `SELECT x, n AS a, 0 AS b FROM (${counts(train)})`;
  return `SELECT coalesce(p.x, q.x) AS x, coalesce(p.n, 0) AS a, coalesce(q.n, 0) AS b FROM (${counts(train)}) p FULL OUTER JOIN (${counts(test)}) q ON p.x = q.x`;
}

async function groupedProfile(engine: Engine, column: string, train: Side, test: Side | null, psi: (p: number[], q: number[]) => number): Promise<NumericProfile> {
  const c = ident(column);
  const dist = ident(`dist_${train.table}`);
  await engine.run(
    `CREATE OR REPLACE TEMP TABLE ${dist} AS SELECT x, a, sum(a) OVER w AS ca, sum(b) OVER w AS cb FROM (${groupedCounts(c, train, test)}) WINDOW w AS (ORDER BY x ROWS UNBOUNDED PRECEDING)`,
  );
  try {
    const n = train.count;
    const wanted = [...QUARTILES, ...(test ? DECILES : [])].map((q) => positions(n, q));
    const ks = [...new Set(wanted.flatMap((p) => [p.lo, p.hi]))];
    const [row] = await engine.rows(
      `SELECT count(*) FILTER (WHERE a > 0) AS unique, max(a) AS top_n, min(x) FILTER (WHERE a = (SELECT max(a) FROM ${dist}))::VARCHAR AS top,
       ${ks.map((k, i) => `min(x) FILTER (WHERE ca > ${k})::DOUBLE AS k${i}`).join(", ")} FROM ${dist}`,
    );
    const at = new Map(ks.map((k, i) => [k, Number(row?.[`k${i}`])]));
    const quantile = (p: { lo: number; hi: number; t: number }) => lerp(at.get(p.lo)!, at.get(p.hi)!, p.t);
    const profile: NumericProfile = {
      distinct: { unique: Number(row?.unique ?? 0), top: row?.top == null ? null : String(row.top), topFrequency: Number(row?.top_n ?? 0) },
      quartiles: wanted.slice(0, 3).map(quantile) as [number, number, number],
      quartilesEstimated: false,
      drift: null,
    };
    if (test && test.count > 0) {
      const edges = [...new Set(wanted.slice(3).map(quantile).filter(Number.isFinite))].sort((a, b) => a - b);
      const [cum] = await engine.rows(
        `SELECT ${edges.map((e, i) => `coalesce(max(ca) FILTER (WHERE x <= ${doubleLiteral(e)}), 0) AS a${i}, coalesce(max(cb) FILTER (WHERE x <= ${doubleLiteral(e)}), 0) AS b${i}`).join(", ")},
         max(abs(ca / ${n} - cb / ${test.count})) AS ks FROM ${dist}`,
      );
      const upTo = (side: "a" | "b") => edges.map((_, i) => Number(cum?.[`${side}${i}`] ?? 0));
      profile.drift = { psi: psi(binShares(upTo("a"), n), binShares(upTo("b"), test.count)), ks: Number(cum?.ks ?? 0) };
    }
    return profile;
  } finally {
    await engine.run(`DROP TABLE IF EXISTS ${dist}`);
  }
}

/**
 * A near-unique column sorted as it is, in one query: hashing every distinct value cost more than the sort. Its
 * running sums step through tied rows one at a time, so KS is read only at the last row of each value (`last`; a
 * RANGE frame over peers gives the same and was 1.3–1.8× slower). The order statistics are read in the same query
 * (materializing the sorted column and reading it twice cost as much again as the sort); PSI bins are then counted
 * against their edges in a plain scan of each split. Distinct count and top value come from distinct.ts.
 */
async function sortedProfile(engine: Engine, column: string, train: Side, test: Side | null, psi: (p: number[], q: number[]) => number): Promise<NumericProfile> {
  const c = ident(column);
  const n = train.count;
  const wanted = [...QUARTILES, ...(test ? DECILES : [])].map((q) => positions(n, q));
  const ks = [...new Set(wanted.flatMap((p) => [p.lo, p.hi]))];
  const window = test
    ? `SELECT x, sum(a) OVER w AS ca, sum(b) OVER w AS cb, lead(x) OVER w IS DISTINCT FROM x AS last FROM (${splitValues(c, train, test)}) WINDOW w AS (ORDER BY x ROWS UNBOUNDED PRECEDING)`
    : `SELECT x, row_number() OVER (ORDER BY x) AS ca FROM (${splitValues(c, train, null)})`;
  const ksSql = test ? `, max(abs(ca / ${n} - cb / ${test.count})) FILTER (WHERE last) AS ks` : "";
  const [row] = await engine.rows(`SELECT ${ks.map((k, i) => `min(x) FILTER (WHERE ca > ${k})::DOUBLE AS k${i}`).join(", ")}${ksSql} FROM (${window})`);
  const at = new Map(ks.map((k, i) => [k, Number(row?.[`k${i}`])]));
  const quantile = (p: { lo: number; hi: number; t: number }) => lerp(at.get(p.lo)!, at.get(p.hi)!, p.t);
  const profile: NumericProfile = { distinct: null, quartiles: wanted.slice(0, 3).map(quantile) as [number, number, number], quartilesEstimated: false, drift: null };
  if (test && test.count > 0) {
    const edges = [...new Set(wanted.slice(3).map(quantile).filter(Number.isFinite))].sort((a, b) => a - b);
    const counts = async (side: Side) => {
      const [r] = await engine.rows(`SELECT ${edges.map((e, i) => `count(*) FILTER (WHERE ${c} <= ${doubleLiteral(e)}) AS e${i}`).join(", ")} FROM ${ident(side.table)}`);
      return edges.map((_, i) => Number(r?.[`e${i}`] ?? 0));
    };
    profile.drift = { psi: psi(binShares(await counts(train), n), binShares(await counts(test), test.count)), ks: Number(row?.ks ?? 0) };
  }
  return profile;
}

/**
 * Estimated quartiles of a near-unique column of more than QUANTILE_EXACT_BOUND values when nothing else needs it
 * sorted: quantile_cont over a sample of at least QUANTILE_SAMPLE_ROWS rows, picked by a hash of the row's
 * position so the same file gives the same answer on every run.
 */
async function sampledProfile(engine: Engine, column: string, train: Side): Promise<NumericProfile> {
  const c = ident(column);
  const every = Math.max(1, Math.floor(train.count / QUANTILE_SAMPLE_ROWS));
  const [row] = await engine.rows(
    `SELECT quantile_cont(${c}, [${QUARTILES.join(", ")}])::DOUBLE[] AS q FROM ${ident(train.table)} WHERE ${c} IS NOT NULL AND hash(rowid) % ${every} = 0`,
  );
  const q = (row?.q as number[] | null) ?? [];
  return { distinct: null, quartiles: [Number(q[0]), Number(q[1]), Number(q[2])], quartilesEstimated: true, drift: null };
}
