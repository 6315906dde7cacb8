import { exactAsDouble } from "./dtype.js";
import type { Engine } from "./engine.js";
import { OrderedValues } from "./ordered-values.js";
import type { LoadedTable } from "./source.js";
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

/** Moments and extremes of a column's train values, with its count of infinite values. */
export interface Moments {
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
  inf: number;
}

/** Everything of a numeric column that comes from its values in order. */
export interface NumericProfile {
  /** Non-missing train values. */
  count: number;
  moments: Moments;
  /** Distinct count and top value, exact, when the values were read in order and each is exact as a DOUBLE. */
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

/** Shares of the PSI bins from the running counts at each upper edge and the total. */
function binShares(upTo: number[], total: number): number[] {
  return [...upTo, total].map((v, i) => (v - (i === 0 ? 0 : upTo[i - 1]!)) / total);
}

/** A split's table under its two names (source.ts): NaN missing in `table`, as written in `rawTable`. */
export type SplitTables = Pick<LoadedTable, "table" | "rawTable" | "rows">;

/** A numeric column: its name and DuckDB type. */
export interface NumericColumn {
  name: string;
  type: string;
}

/**
 * Exact order statistics, and with a test file (`test`, its table) PSI bins and KS, of one numeric column of the
 * train table, from its values read once in order into memory (ordered-values.ts); null when it has none. A
 * column with repeated values is grouped first, each split on its own: its distinct values with their train and
 * test counts. A near-unique column (`grouped` false), where hashing every value cost more than the sort, is
 * sorted as it is, or, above QUANTILE_EXACT_BOUND values with nothing else needing the sort, gets estimated
 * quartiles (sampledProfile). Reading the sorted values in JS replaced window functions over the sort (running
 * sums, lead) and a second pass for PSI bins (for a 10 M-row near-unique column with a 1 M-row test file,
 * 6.3 CPU-seconds became about 2), and gives the count and moments too, which an avg/stddev_samp pass over all
 * columns took 3.3 CPU-seconds for.
 */
export async function numericProfile(
  engine: Engine,
  column: NumericColumn,
  train: SplitTables,
  test: SplitTables | null,
  psi: (p: number[], q: number[]) => number,
  grouped: boolean,
): Promise<NumericProfile | null> {
  const c = ident(column.name);
  if (!grouped && !test) {
    const [row] = await engine.rows(`SELECT count(${c}) AS n FROM ${ident(train.table)}`);
    const count = Number(row?.n ?? 0);
    if (count > QUANTILE_EXACT_BOUND) return sampledProfile(engine, column.name, train.table, count);
  }
  const values = grouped ? await groupedValues(engine, c, train.rawTable, test?.rawTable ?? null) : await sortedValues(engine, c, train, test);
  const n = values.trainCount;
  if (n === 0) return null;
  const wanted = [...QUARTILES, ...(test ? DECILES : [])].map((q) => positions(n, q));
  const quantile = (p: { lo: number; hi: number; t: number }) => lerp(values.orderStatistic(p.lo), values.orderStatistic(p.hi), p.t);
  const moments = values.moments();
  const profile: NumericProfile = {
    count: n,
    moments,
    distinct: exactAsDouble(column.type, moments.min, moments.max) ? await distinctOf(engine, column, values) : null,
    quartiles: wanted.slice(0, 3).map(quantile) as [number, number, number],
    quartilesEstimated: false,
    drift: null,
  };
  const m = values.testCount;
  if (m > 0) {
    const edges = [...new Set(wanted.slice(3).map(quantile).filter(Number.isFinite))].sort((a, b) => a - b);
    const upTo = edges.map((e) => values.countsUpTo(e));
    profile.drift = { psi: psi(binShares(upTo.map((u) => u.a), n), binShares(upTo.map((u) => u.b), m)), ks: values.ks(n, m) };
  }
  return profile;
}

/**
 * Distinct values with their train and test counts, each split grouped on its own and the two small results joined.
 * The tables are read with NaN as written (`rawTable`): missing values and NaN are grouped like any value and their
 * groups dropped from the small result, cheaper than setting every row's NaN apart before grouping.
 */
async function groupedValues(engine: Engine, c: string, train: string, test: string | null): Promise<OrderedValues> {
  const counts = (table: string) => `SELECT ${c} AS x, count(*) AS n FROM ${ident(table)} GROUP BY ${c}`;
  const rows = test
    ? `SELECT coalesce(p.x, q.x) AS x, coalesce(p.n, 0) AS a, coalesce(q.n, 0) AS b FROM (${counts(train)}) p FULL OUTER JOIN (${counts(test)}) q ON p.x = q.x`
    : `SELECT x, n AS a, 0 AS b FROM (${counts(train)})`;
  const values = new OrderedValues();
  const read = `SELECT x::DOUBLE AS x, a::DOUBLE AS a, b::DOUBLE AS b FROM (${rows}) WHERE x IS NOT NULL AND NOT isnan(x::DOUBLE) ORDER BY x`;
  await engine.scanDoubles(read, ([x, a, b], n) => {
    for (let r = 0; r < n; r++) values.add(x![r]!, a![r]!, b![r]!);
  });
  return values.finish();
}

/**
 * Every value of each split sorted on its own, the test file's (a tenth of train's in the benchmark) held in
 * memory and merged into train's as they stream: a sort of one column each, where sorting both splits' values
 * marked by split moved three columns per row and cost 1.5× as much.
 */
async function sortedValues(engine: Engine, c: string, train: SplitTables, test: SplitTables | null): Promise<OrderedValues> {
  const sorted = (table: string) => `SELECT ${c}::DOUBLE AS x FROM ${ident(table)} WHERE ${c} IS NOT NULL ORDER BY x`;
  const held: Float64Array[] = [];
  let heldCount = 0;
  if (test) {
    await engine.scanDoubles(sorted(test.table), ([x], n) => {
      held.push(x!.slice(0, n));
      heldCount += n;
    });
  }
  const others = new Float64Array(heldCount);
  held.reduce((at, chunk) => (others.set(chunk, at), at + chunk.length), 0);
  // Room for every row at once: each value may be distinct.
  const values = new OrderedValues(train.rows + heldCount);
  let j = 0;
  await engine.scanDoubles(sorted(train.table), ([x], n) => {
    for (let r = 0; r < n; r++) {
      const v = x![r]!;
      while (j < heldCount && others[j]! < v) values.add(others[j++]!, 0, 1);
      values.add(v, 1, 0);
    }
  });
  while (j < heldCount) values.add(others[j++]!, 0, 1);
  return values.finish();
}

/** Distinct count and top value, the top written as DuckDB writes a value of the column's own type. */
async function distinctOf(engine: Engine, column: NumericColumn, values: OrderedValues): Promise<NonNullable<NumericProfile["distinct"]>> {
  if (values.top === null) return { unique: 0, top: null, topFrequency: null };
  const [row] = await engine.rows(`SELECT ${doubleLiteral(values.top)}::${column.type}::VARCHAR AS top`);
  return { unique: values.unique, top: String(row?.top), topFrequency: values.topFrequency };
}

/**
 * Estimated quartiles of a near-unique column of more than QUANTILE_EXACT_BOUND values when nothing else needs it
 * sorted: quantile_cont over a sample of at least QUANTILE_SAMPLE_ROWS rows, picked by a hash of the row's
 * position so the same file gives the same answer on every run.
 */
async function sampledProfile(engine: Engine, column: string, train: string, count: number): Promise<NumericProfile> {
  const c = ident(column);
  const every = Math.max(1, Math.floor(count / QUANTILE_SAMPLE_ROWS));
  const [row] = await engine.rows(
    `SELECT quantile_cont(${c}, [${QUARTILES.join(", ")}])::DOUBLE[] AS q FROM ${ident(train)} WHERE ${c} IS NOT NULL AND hash(rowid) % ${every} = 0`,
  );
  const q = (row?.q as number[] | null) ?? [];
  return { count, moments: await momentsOf(engine, column, train), distinct: null, quartiles: [Number(q[0]), Number(q[1]), Number(q[2])], quartilesEstimated: true, drift: null };
}

/** Moments of a column that is not read in order: one scan. */
async function momentsOf(engine: Engine, column: string, train: string): Promise<Moments> {
  const c = ident(column);
  const [m] = await engine.rows(
    `SELECT avg(${c})::DOUBLE AS mean, stddev_samp(${c})::DOUBLE AS std, min(${c})::DOUBLE AS min, max(${c})::DOUBLE AS max, count_if(isinf(${c}::DOUBLE)) AS inf FROM ${ident(train)}`,
  );
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  return { mean: num(m?.mean), std: num(m?.std), min: num(m?.min), max: num(m?.max), inf: num(m?.inf) ?? 0 };
}
