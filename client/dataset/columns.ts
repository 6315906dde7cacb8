import { summarizeDistinct } from "./distinct.js";
import { familyOf, pandasDtypeOf } from "./dtype.js";
import type { Cell, Engine } from "./engine.js";
import type { ColumnStatistics } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

const num = (v: Cell | undefined): number | null => (typeof v === "number" ? v : null);

/**
 * Moments and extremes of every column in one scan of the table (count, mean, sample std as pandas' ddof=1,
 * min, max, infinities), then exact quartiles one numeric column at a time (each holds its column's values while
 * it runs, so memory stays one column wide), then distinct counts and top values.
 */
export async function columnStatistics(engine: Engine, loaded: LoadedTable): Promise<Record<string, ColumnStatistics>> {
  const t = ident(loaded.table);
  const parts = loaded.columns.flatMap((col, i) => {
    const c = ident(col.name);
    const out = [`count(${c}) AS n${i}`];
    if (familyOf(col.type) === "numeric") {
      out.push(`avg(${c}) AS mean${i}`, `stddev_samp(${c}) AS std${i}`, `min(${c})::DOUBLE AS min${i}`, `max(${c})::DOUBLE AS max${i}`);
      if (/^(DOUBLE|FLOAT|REAL)$/.test(col.type)) out.push(`count_if(isinf(${c})) AS inf${i}`);
    }
    return out;
  });
  const [agg] = await engine.rows(`SELECT ${parts.join(", ")} FROM ${t}`);
  const out: Record<string, ColumnStatistics> = {};
  for (const [i, col] of loaded.columns.entries()) {
    const family = familyOf(col.type);
    const count = num(agg?.[`n${i}`]) ?? 0;
    const missing = loaded.rows - count;
    const numeric = family === "numeric";
    const quartiles = numeric && count > 0 ? await quartilesOf(engine, loaded.table, col.name) : null;
    const distinct = await summarizeDistinct(engine, loaded.table, col.name, count);
    const inf = num(agg?.[`inf${i}`]);
    out[col.name] = {
      dtype: pandasDtypeOf(col.type),
      count,
      missing,
      missing_fraction: loaded.rows ? missing / loaded.rows : 0,
      unique: distinct.unique,
      ...(distinct.estimated ? { unique_estimated: true } : {}),
      mean: numeric ? num(agg?.[`mean${i}`]) : null,
      std: numeric ? num(agg?.[`std${i}`]) : null,
      min: numeric ? num(agg?.[`min${i}`]) : null,
      max: numeric ? num(agg?.[`max${i}`]) : null,
      p25: quartiles?.[0] ?? null,
      p50: quartiles?.[1] ?? null,
      p75: quartiles?.[2] ?? null,
      top: distinct.top,
      top_frequency: distinct.topFrequency,
      ...(inf !== null ? { inf_count: inf } : {}),
    };
  }
  return out;
}

/** Quartiles with linear interpolation between order statistics, as pandas' quantile() and describe() default. */
async function quartilesOf(engine: Engine, table: string, column: string): Promise<[number, number, number] | null> {
  const c = ident(column);
  const [row] = await engine.rows(`SELECT quantile_cont(${c}::DOUBLE, [0.25, 0.5, 0.75]) AS q FROM ${ident(table)}`);
  const q = row?.q;
  return Array.isArray(q) && q.length === 3 && q.every((x) => typeof x === "number") ? (q as [number, number, number]) : null;
}
