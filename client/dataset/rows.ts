import { FLOAT_TYPE } from "./dtype.js";
import type { Engine } from "./engine.js";
import type { CountFraction } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident } from "./sql.js";

/** Columns both files have, by name, in the train file's order. */
export function sharedColumns(train: LoadedTable, test: LoadedTable): Array<{ name: string; sameType: boolean }> {
  const testTypes = new Map(test.columns.map((c) => [c.name, c.type]));
  return train.columns.filter((c) => testTypes.has(c.name)).map((c) => ({ name: c.name, sameType: testTypes.get(c.name) === c.type }));
}

/** Exact duplicate rows of train, and with a test file the rows of test also present in train. */
export interface RowMatches {
  duplicates: CountFraction;
  overlap: CountFraction | null;
}

/** SQL for a hash of a row from its value expressions, one per column. */
export type RowHash = (values: string[]) => string;

/** DuckDB's 64-bit hash over all the values: rows equal on every value (missing equal to missing) share it. */
export const rowHash: RowHash = (values) => `hash(${values.join(", ")})`;

const share = (count: number, of: number): CountFraction => ({ count, fraction: of ? count / of : 0 });

/**
 * Exact duplicate rows (count = rows minus distinct rows, the extra copies, as pandas' `duplicated().sum()`) and
 * the train/test overlap (test rows whose values on every shared column equal a row of train, each counted once:
 * `test.merge(train.drop_duplicates(), on=shared)`), missing equal to missing as pandas compares them; columns of
 * different types in the two files are compared as text.
 *
 * Rows are compared by a 64-bit hash of the whole row first: grouping 11 M hashes costs about half of grouping
 * the 11 M rows on their 20 columns (SELECT DISTINCT * and a semi join on every column took 7.1 CPU-seconds at
 * 10 M + 1 M rows). A row whose hash no other row shares is distinct from all of them, so only rows sharing a hash
 * (the candidates: 1 % of them in the benchmark) are then compared on their values, which keeps both counts exact
 * whatever the hash collides on. `hashOf` writes that hash over a row's value expressions: anything on which equal
 * rows agree keeps both counts exact, which the tests show with a deliberately weak one that collides everywhere.
 */
export async function rowMatches(engine: Engine, train: LoadedTable, test: LoadedTable | null, hashOf: RowHash = rowHash): Promise<RowMatches> {
  const all = train.columns.map((c) => ident(c.name));
  const shared = test && test.rows > 0 ? sharedColumns(train, test) : [];
  // With one type per column in both files, the files are read as written and a float column's missing values
  // become NaN, instead of the tables' NaN becoming missing on every row read: coalesce passes a vector without
  // missing values as it is, and the replacement cost 0.7 CPU-seconds per pass over the benchmark's 10 M rows.
  // DuckDB hashes, groups and compares every NaN as one value, so missing still equals missing.
  const asWritten = shared.every((c) => c.sameType);
  const valueOf = (c: LoadedTable["columns"][number]) => (asWritten && FLOAT_TYPE.test(c.type) ? `coalesce(${ident(c.name)}, 'nan'::${c.type})` : ident(c.name));
  const from = (table: LoadedTable) => ident(asWritten ? table.rawTable : table.table);
  const types = new Map(train.columns.map((c) => [c.name, c.type]));
  const key = shared.map((c) => (c.sameType ? valueOf({ name: c.name, type: types.get(c.name)! }) : `${ident(c.name)}::VARCHAR`));
  const wholeRowHash = hashOf(train.columns.map(valueOf));
  const keyHash = hashOf(key);
  const t = from(train);
  // One grouping serves both counts when the overlap compares whole train rows, as it does for two files of one table.
  const oneKey = shared.length === all.length && shared.every((c) => c.sameType);
  try {
    if (test && oneKey) {
      await engine.run(
        // s is 0 for a train row, 1 for a test row: two rows or more, one of them from train.
        `CREATE TEMP TABLE row_candidates AS SELECT h FROM (SELECT ${wholeRowHash} AS h, 0::UTINYINT AS s FROM ${t} UNION ALL SELECT ${keyHash}, 1::UTINYINT FROM ${from(test)})
         GROUP BY h HAVING count(*) > 1 AND min(s) = 0`,
      );
    } else {
      await engine.run(`CREATE TEMP TABLE row_candidates AS SELECT ${wholeRowHash} AS h FROM ${t} GROUP BY h HAVING count(*) > 1`);
      if (test && shared.length > 0) {
        await engine.run(
          `CREATE TEMP TABLE key_candidates AS SELECT h FROM (SELECT ${keyHash} AS h, 0::UTINYINT AS s FROM ${t} UNION ALL SELECT ${keyHash}, 1::UTINYINT FROM ${from(test)})
           GROUP BY h HAVING min(s) = 0 AND max(s) = 1`,
        );
      }
    }
    const keyCandidates = oneKey ? "row_candidates" : "key_candidates";
    // Every copy of a repeated row shares its hash, so every repeated row is here with all its copies; rows let in
    // by their key alone have a hash of their own and count as no duplicate.
    const byKey = test && shared.length > 0 && !oneKey ? ` OR ${keyHash} IN (SELECT h FROM key_candidates)` : "";
    await engine.run(`CREATE TEMP TABLE candidate_rows AS SELECT ${train.columns.map((c, i) => `${valueOf(c)} AS ${all[i]}`).join(", ")} FROM ${t} WHERE ${wholeRowHash} IN (SELECT h FROM row_candidates)${byKey}`);
    const [dup] = await engine.rows(`SELECT coalesce(sum(n - 1), 0) AS n FROM (SELECT count(*) AS n FROM candidate_rows GROUP BY ${all.join(", ")})`);
    const duplicates = share(Number(dup?.n ?? 0), train.rows);
    if (!test || shared.length === 0) return { duplicates, overlap: null };
    const on = key.map((_, i) => `a.k${i} IS NOT DISTINCT FROM b.k${i}`).join(" AND ");
    const keys = key.map((k, i) => `${k} AS k${i}`).join(", ");
    const [over] = await engine.rows(
      `SELECT count(*) AS n FROM (SELECT ${keys} FROM ${from(test)} WHERE ${keyHash} IN (SELECT h FROM ${keyCandidates})) AS a SEMI JOIN (SELECT ${keys} FROM candidate_rows) AS b ON ${on}`,
    );
    return { duplicates, overlap: share(Number(over?.n ?? 0), test.rows) };
  } finally {
    await engine.run("DROP TABLE IF EXISTS row_candidates; DROP TABLE IF EXISTS key_candidates; DROP TABLE IF EXISTS candidate_rows");
  }
}
