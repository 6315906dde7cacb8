import type { Engine } from "./engine.js";
import type { ConflictingLabels } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

const EXAMPLES = 5;
/** Feature values shown per example: enough to recognize the row, short enough for a report. */
const EXAMPLE_COLUMNS = 8;

/**
 * Rows of train that share every feature value with a row of another label (Deepchecks' Conflicting Labels: the
 * share of samples in such groups). Rows are grouped by a 64-bit hash of their feature values, missing equal to
 * missing; a collision would need two different rows with different labels to share a hash (about n²/2⁶⁵: 3·10⁻⁶
 * at 10 M rows), so the count is not checked on the values as the duplicate count is. A group conflicts when its
 * smallest and largest label differ: the same test as two distinct labels, at half the CPU of count(DISTINCT), which
 * keeps a set per group (5.9 against 10.4 CPU-s on 10 M rows).
 */
export async function conflictingLabels(engine: Engine, train: LoadedTable, target: string): Promise<ConflictingLabels | null> {
  const features = train.columns.filter((c) => c.name !== target).map((c) => ident(c.name));
  if (features.length === 0) return null;
  const y = ident(target);
  const t = ident(train.table);
  const hash = `hash(${features.join(", ")})`;
  await engine.run(`
    CREATE TEMP TABLE conflict_groups AS SELECT k, n FROM (
      SELECT ${hash} AS k, count(*) AS n, min(${y}) <> max(${y}) AS conflicting FROM ${t} WHERE ${y} IS NOT NULL GROUP BY k)
    WHERE conflicting`);
  try {
    const [totals] = await engine.rows(`SELECT coalesce(sum(n), 0) AS count, (SELECT count(*) FROM ${t} WHERE ${y} IS NOT NULL) AS rows FROM conflict_groups`);
    const count = Number(totals?.count ?? 0);
    const rows = Number(totals?.rows ?? 0);
    const shown = features.slice(0, EXAMPLE_COLUMNS);
    const examples = count === 0 ? [] : await engine.rows(`
      SELECT list(DISTINCT ${y}::VARCHAR ORDER BY ${y}::VARCHAR) AS labels, ${shown.map((f, i) => `any_value(${f})::VARCHAR AS c${i}`).join(", ")}
      FROM ${t} WHERE ${y} IS NOT NULL AND ${hash} IN (SELECT k FROM conflict_groups ORDER BY n DESC, k LIMIT ${EXAMPLES})
      GROUP BY ${hash} ORDER BY count(*) DESC, labels`);
    const names = train.columns.filter((c) => c.name !== target).slice(0, EXAMPLE_COLUMNS).map((c) => c.name);
    return {
      count,
      fraction: rows ? count / rows : 0,
      examples: examples.map((r) => ({
        values: Object.fromEntries(names.map((n, i) => [n, r[`c${i}`] === null ? null : String(r[`c${i}`])])),
        labels: (r.labels as string[]).map(String),
      })),
    };
  } finally {
    await engine.run("DROP TABLE conflict_groups");
  }
}
