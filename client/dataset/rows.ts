import type { Engine } from "./engine.js";
import type { CountFraction } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

/**
 * Exact duplicate rows of one file: count = rows minus distinct rows (the extra copies, as pandas'
 * `duplicated().sum()`), missing values equal to each other as pandas compares them.
 */
export async function duplicateRows(engine: Engine, loaded: LoadedTable): Promise<CountFraction> {
  const [row] = await engine.rows(`SELECT count(*) AS n FROM (SELECT DISTINCT * FROM ${ident(loaded.table)})`);
  const count = loaded.rows - Number(row?.n ?? 0);
  return { count, fraction: loaded.rows ? count / loaded.rows : 0 };
}

/** Columns both files have, by name, in the train file's order. */
export function sharedColumns(train: LoadedTable, test: LoadedTable): Array<{ name: string; sameType: boolean }> {
  const testTypes = new Map(test.columns.map((c) => [c.name, c.type]));
  return train.columns.filter((c) => testTypes.has(c.name)).map((c) => ({ name: c.name, sameType: testTypes.get(c.name) === c.type }));
}

/**
 * Rows of the test file whose values on every shared column equal a row of train (missing equal to missing), each
 * test row counted once: the pandas equivalent is `test.merge(train.drop_duplicates(), on=shared)`. Columns of
 * different types in the two files are compared as text.
 */
export async function trainTestOverlap(engine: Engine, train: LoadedTable, test: LoadedTable): Promise<CountFraction | null> {
  const shared = sharedColumns(train, test);
  if (shared.length === 0 || test.rows === 0) return null;
  const key = (alias: string, c: { name: string; sameType: boolean }) => `${alias}.${ident(c.name)}${c.sameType ? "" : "::VARCHAR"}`;
  const on = shared.map((c) => `${key("a", c)} IS NOT DISTINCT FROM ${key("b", c)}`).join(" AND ");
  const [row] = await engine.rows(`SELECT count(*) AS n FROM ${ident(test.table)} AS a SEMI JOIN ${ident(train.table)} AS b ON ${on}`);
  const count = Number(row?.n ?? 0);
  return { count, fraction: count / test.rows };
}
