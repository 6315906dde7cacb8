import { familyOf } from "./dtype.js";
import type { Engine } from "./engine.js";
import type { TimeSplit } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

/**
 * The time column train and test are compared on: the one named with --time-column, or else the first date/time
 * column both files have. Null when there is none. A stated column was checked to be in both files.
 */
function timeColumnOf(train: LoadedTable, test: LoadedTable, stated: string | null): { name: string; stated: boolean } | null {
  if (stated) return { name: stated, stated: true };
  const inTest = new Set(test.columns.filter((c) => familyOf(c.type) === "temporal").map((c) => c.name));
  const found = train.columns.find((c) => familyOf(c.type) === "temporal" && inTest.has(c.name));
  return found ? { name: found.name, stated: false } : null;
}

/**
 * Test rows dated strictly before the latest train row: in a split by time there are none, and each one is a
 * row the model was evaluated on although later rows taught it. Values are compared as the files type them.
 */
export async function timeSplit(engine: Engine, train: LoadedTable, test: LoadedTable, stated: string | null): Promise<TimeSplit | null> {
  const column = timeColumnOf(train, test, stated);
  if (!column) return null;
  const x = ident(column.name);
  const [row] = await engine.rows(`
    WITH tr AS (SELECT min(${x}) AS lo, max(${x}) AS hi FROM ${ident(train.table)}),
         te AS (SELECT min(${x}) AS lo, max(${x}) AS hi, count(${x}) AS n FROM ${ident(test.table)})
    SELECT tr.lo::VARCHAR AS train_min, tr.hi::VARCHAR AS train_max, te.lo::VARCHAR AS test_min, te.hi::VARCHAR AS test_max, te.n AS n,
           (SELECT count(*) FROM ${ident(test.table)} WHERE ${x} < tr.hi) AS before
    FROM tr, te`);
  const n = Number(row?.n ?? 0);
  if (!row || n === 0 || row.train_max === null) return null;
  const before = Number(row.before ?? 0);
  return {
    column: column.name,
    stated: column.stated,
    train_min: String(row.train_min),
    train_max: String(row.train_max),
    test_min: String(row.test_min),
    test_max: String(row.test_max),
    test_before_train_end: { count: before, fraction: before / n },
  };
}
