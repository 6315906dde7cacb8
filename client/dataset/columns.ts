import { summarizeDistinct } from "./distinct.js";
import { psi } from "./drift.js";
import { familyOf, pandasDtypeOf } from "./dtype.js";
import type { Cell, Engine } from "./engine.js";
import { numericProfile } from "./numeric.js";
import type { ColumnDrift, ColumnStatistics } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

const num = (v: Cell | undefined): number | null => (typeof v === "number" ? v : null);
/** Above this share of distinct values (DuckDB's rough estimate) a numeric column is sorted without grouping. */
const NEAR_UNIQUE_SHARE = 0.25;

/** Column statistics of the train file, and the drift of numeric columns, which comes from the same sorts. */
export interface ColumnProfiles {
  columns: Record<string, ColumnStatistics>;
  numericDrift: Record<string, ColumnDrift>;
}

/** Non-missing counts in the test file of the numeric columns it shares with train (drift needs both). */
async function testCounts(engine: Engine, train: LoadedTable, test: LoadedTable | null): Promise<Map<string, number>> {
  if (!test) return new Map();
  const testTypes = new Map(test.columns.map((c) => [c.name, c.type]));
  const shared = train.columns.filter((c) => familyOf(c.type) === "numeric" && testTypes.has(c.name) && familyOf(testTypes.get(c.name)!) === "numeric");
  if (shared.length === 0) return new Map();
  const [row] = await engine.rows(`SELECT ${shared.map((c, i) => `count(${ident(c.name)}) AS n${i}`).join(", ")} FROM ${ident(test.table)}`);
  return new Map(shared.map((c, i) => [c.name, num(row?.[`n${i}`]) ?? 0]));
}

/**
 * Moments and extremes of every column in one scan of the train table (count, mean, sample std as pandas'
 * ddof=1, min, max, infinities, and DuckDB's rough distinct estimate to route text columns), then per numeric
 * column one sort for its exact distinct count, top value, quartiles and drift (numeric.ts), and per other
 * column one hash aggregate (or an estimate above the bound) for distinct count and top value.
 */
export async function profileColumns(engine: Engine, train: LoadedTable, test: LoadedTable | null): Promise<ColumnProfiles> {
  const parts = train.columns.flatMap((col, i) => {
    const c = ident(col.name);
    const out = [`count(${c}) AS n${i}`];
    if (familyOf(col.type) === "numeric") {
      out.push(`avg(${c}) AS mean${i}`, `stddev_samp(${c}) AS std${i}`, `min(${c})::DOUBLE AS min${i}`, `max(${c})::DOUBLE AS max${i}`);
      if (/^(DOUBLE|FLOAT|REAL)$/.test(col.type)) out.push(`count_if(isinf(${c})) AS inf${i}`);
    }
    out.push(`approx_count_distinct(${c}) AS approx${i}`);
    return out;
  });
  const [agg] = await engine.rows(`SELECT ${parts.join(", ")} FROM ${ident(train.table)}`);
  const inTest = await testCounts(engine, train, test);
  const columns: Record<string, ColumnStatistics> = {};
  const numericDrift: Record<string, ColumnDrift> = {};
  for (const [i, col] of train.columns.entries()) {
    const count = num(agg?.[`n${i}`]) ?? 0;
    const missing = train.rows - count;
    const numeric = familyOf(col.type) === "numeric";
    const testCount = inTest.get(col.name);
    const approx = num(agg?.[`approx${i}`]) ?? 0;
    const profile =
      numeric && count > 0
        ? await numericProfile(engine, col.name, { table: train.table, count }, test && testCount ? { table: test.table, count: testCount } : null, psi, approx <= count * NEAR_UNIQUE_SHARE)
        : null;
    const distinct = profile?.distinct ?? (await summarizeDistinct(engine, train.table, col.name, count, approx));
    if (profile?.drift) numericDrift[col.name] = { kind: "numeric", ...profile.drift };
    const inf = num(agg?.[`inf${i}`]);
    columns[col.name] = {
      dtype: pandasDtypeOf(col.type),
      count,
      missing,
      missing_fraction: train.rows ? missing / train.rows : 0,
      unique: distinct.unique,
      ...("estimated" in distinct && distinct.estimated ? { unique_estimated: true } : {}),
      mean: numeric ? num(agg?.[`mean${i}`]) : null,
      std: numeric ? num(agg?.[`std${i}`]) : null,
      min: numeric ? num(agg?.[`min${i}`]) : null,
      max: numeric ? num(agg?.[`max${i}`]) : null,
      p25: profile?.quartiles[0] ?? null,
      p50: profile?.quartiles[1] ?? null,
      p75: profile?.quartiles[2] ?? null,
      top: distinct.top,
      top_frequency: distinct.topFrequency,
      ...(inf !== null ? { inf_count: inf } : {}),
    };
  }
  return { columns, numericDrift };
}
