import type { Engine } from "./engine.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

/** Rows per value of the target column (missing left out), most frequent first; labels as text, as JSON keys are. */
export async function classCounts(engine: Engine, loaded: LoadedTable, target: string): Promise<Record<string, number>> {
  const c = ident(target);
  const rows = await engine.rows(
    `SELECT ${c}::VARCHAR AS label, count(*) AS n FROM ${ident(loaded.table)} WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY n DESC, label`,
  );
  return Object.fromEntries(rows.map((r) => [String(r.label), Number(r.n)]));
}
