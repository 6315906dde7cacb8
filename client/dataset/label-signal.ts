import { familyOf } from "./dtype.js";
import type { Engine } from "./engine.js";
import type { LabelSignal } from "./schema.js";
import type { LoadedTable } from "./source.js";
import { ident, literal } from "./sql.js";

/** A target with more distinct values than this is treated as a regression target: no label signal is computed. */
export const MAX_CLASSES = 50;
/** Quantile bins a numeric feature is cut into for the purity score (edges from train). */
const BINS = 10;
/**
 * Above this many rows a split is scored on a hash-picked sample of about SAMPLE_ROWS rows: a score's standard
 * deviation there is at most about 0.01 (an AUC's of a 10 % class), below the rules' thresholds (0.05 for
 * identifiers, 0.2 and 0.8 otherwise), and the 20 columns of a 1 M-row file took 17.5 s scored on every row
 * (bench dataset_stats, quick profile, load 22) with four grouped or sorted queries per column.
 */
const SAMPLE_ABOVE = 1 << 17;
const SAMPLE_ROWS = 1 << 16;
/** A score within this many standard deviations of a useless feature's is noise. */
const NOISE_SDS = 3;
/** Steps against a column's direction still read as monotonic: chunk borders of a parallel load. */
const MONOTONIC_SLACK = 16;

type Column = LoadedTable["columns"][number];

/** The rows a split is scored on: the loaded table, or a sample of it; `position` names each row's place in the file. */
interface Scored {
  table: string;
  rows: number;
  position: string;
}

/** A split as scored: itself up to SAMPLE_ABOVE rows, else every ⌈rows / SAMPLE_ROWS⌉-th row by a hash of its position. */
async function scoredRows(engine: Engine, split: LoadedTable, name: string): Promise<Scored> {
  if (split.rows <= SAMPLE_ABOVE) return { table: split.table, rows: split.rows, position: "rowid" };
  // A loaded table's rowid is DuckDB's own; a Parquet view names the file row number so (source.ts).
  await engine.run(`CREATE OR REPLACE TEMP TABLE ${ident(name)} AS SELECT rowid AS label_signal_position, * FROM ${ident(split.table)} WHERE hash(rowid) % ${Math.ceil(split.rows / SAMPLE_ROWS)} = 0`);
  const [row] = await engine.rows(`SELECT count(*) AS n FROM ${ident(name)}`);
  return { table: name, rows: Number(row?.n ?? 0), position: "label_signal_position" };
}

/** A share above the baseline, on the 0–1 scale of Deepchecks' PPS: (accuracy − baseline) / (1 − baseline), at least 0. */
function aboveBaseline(accuracy: number, baseline: number): number {
  return baseline >= 1 ? 0 : Math.max(0, (accuracy - baseline) / (1 - baseline));
}

/** Standard deviation of that score when the feature says nothing (binomial accuracy at the baseline). */
function purityNullSd(baseline: number, n: number): number {
  return n > 0 && baseline < 1 ? Math.sqrt((baseline * (1 - baseline)) / n) / (1 - baseline) : 1;
}

/** The SQL key a row is grouped by: the value as text, or a numeric value's train-quantile bin. */
function keyExpression(c: Column, edges: number[] | null): string {
  const x = ident(c.name);
  if (!edges) return `${x}::VARCHAR`;
  const cases = edges.map((e, i) => `WHEN ${x} <= ${e} THEN ${i}`).join(" ");
  return `CASE WHEN ${x} IS NULL OR isnan(${x}::DOUBLE) THEN NULL ${cases} ELSE ${edges.length} END`;
}

async function binEdges(engine: Engine, train: Scored, c: Column): Promise<number[]> {
  const qs = Array.from({ length: BINS - 1 }, (_, i) => (i + 1) / BINS);
  const [row] = await engine.rows(
    `SELECT quantile_disc(${ident(c.name)}::DOUBLE, [${qs.join(", ")}]) AS q FROM ${ident(train.table)} WHERE ${ident(c.name)} IS NOT NULL AND NOT isnan(${ident(c.name)}::DOUBLE)`,
  );
  const q = Array.isArray(row?.q) ? (row.q as number[]) : [];
  return [...new Set(q.filter(Number.isFinite))].map((e) => Number(e));
}

/**
 * Leave-one-out purity in train: each row is predicted by the majority label of the other rows with its key, or by
 * train's majority label when it is alone. A column unique per row (an identifier) thus scores the baseline, not 1.
 */
async function trainPurity(engine: Engine, train: Scored, key: string, y: string, majority: string): Promise<{ accuracy: number; n: number }> {
  const [row] = await engine.rows(`
    WITH kl AS (SELECT ${key} AS k, ${y}::VARCHAR AS y, count(*) AS c FROM ${ident(train.table)} WHERE ${y} IS NOT NULL GROUP BY ALL),
    g AS (SELECT sum(c) AS n, list_sort(list(c), 'DESC') AS cs, coalesce(sum(c) FILTER (WHERE y = ${literal(majority)}), 0) AS cmaj FROM kl GROUP BY k)
    SELECT sum(CASE WHEN n = 1 THEN cmaj
                    WHEN cs[1] - 1 > coalesce(cs[2], 0) THEN cs[1]
                    WHEN cs[1] - 1 = coalesce(cs[2], 0) THEN cs[1] / 2.0
                    ELSE 0 END) AS correct, sum(n) AS n FROM g`);
  const n = Number(row?.n ?? 0);
  return { accuracy: n ? Number(row?.correct ?? 0) / n : 0, n };
}

/** Accuracy on test of train's majority label per key (train's majority label for keys train never saw). */
async function testPurity(engine: Engine, train: Scored, test: Scored, trainKey: string, testKey: string, y: string, majority: string): Promise<{ accuracy: number; baseline: number; n: number }> {
  const [row] = await engine.rows(`
    WITH m AS (SELECT k, arg_max(y, c) AS label FROM (SELECT ${trainKey} AS k, ${y}::VARCHAR AS y, count(*) AS c FROM ${ident(train.table)} WHERE ${y} IS NOT NULL GROUP BY ALL) GROUP BY k),
    t AS (SELECT ${testKey} AS k, ${y}::VARCHAR AS y FROM ${ident(test.table)} WHERE ${y} IS NOT NULL)
    SELECT count(*) FILTER (WHERE t.y = coalesce(m.label, ${literal(majority)})) AS correct,
           count(*) FILTER (WHERE t.y = ${literal(majority)}) AS naive, count(*) AS n
    FROM t LEFT JOIN m ON t.k IS NOT DISTINCT FROM m.k`);
  const n = Number(row?.n ?? 0);
  return { accuracy: n ? Number(row?.correct ?? 0) / n : 0, baseline: n ? Number(row?.naive ?? 0) / n : 0, n };
}

/**
 * Area under the ROC curve of one numeric feature for a binary label (ties averaged: the Mann–Whitney U over the
 * value groups), with its standard deviation under no association.
 */
async function auc(engine: Engine, table: Scored, c: Column, y: string, positive: string): Promise<{ auc: number; nullSd: number } | null> {
  const x = ident(c.name);
  const [row] = await engine.rows(`
    WITH g AS (SELECT ${x}::DOUBLE AS x, count(*) FILTER (WHERE ${y}::VARCHAR = ${literal(positive)}) AS p, count(*) AS n
               FROM ${ident(table.table)} WHERE ${x} IS NOT NULL AND NOT isnan(${x}::DOUBLE) AND ${y} IS NOT NULL GROUP BY 1),
    r AS (SELECT p, n, sum(n) OVER (ORDER BY x ROWS UNBOUNDED PRECEDING) - n AS below FROM g)
    SELECT sum(p * (below + (n + 1) / 2.0)) AS rank_sum, sum(p) AS pos, sum(n) AS n FROM r`);
  const pos = Number(row?.pos ?? 0);
  const neg = Number(row?.n ?? 0) - pos;
  if (pos === 0 || neg === 0) return null;
  const u = Number(row?.rank_sum) - (pos * (pos + 1)) / 2;
  return { auc: u / (pos * neg), nullSd: 2 * Math.sqrt((pos + neg + 1) / (12 * pos * neg)) };
}

/**
 * Whether a column's values rise (or fall) from row to row all along the file: an id or timestamp assigned in
 * sequence. DuckDB loads a large text file in parallel chunks that may land out of order, so a few steps the
 * other way (at chunk borders) are allowed; a column in random order has as many steps each way.
 */
async function monotonicInRowOrder(engine: Engine, table: Scored, c: Column): Promise<boolean> {
  const x = ident(c.name);
  const [row] = await engine.rows(`
    SELECT count(*) FILTER (WHERE x > p) AS up, count(*) FILTER (WHERE x < p) AS down FROM (
      SELECT ${x} AS x, lag(${x}) OVER (ORDER BY ${table.position}) AS p FROM ${ident(table.table)} WHERE ${x} IS NOT NULL)`);
  const up = Number(row?.up ?? 0);
  const down = Number(row?.down ?? 0);
  return up + down > 0 && Math.min(up, down) <= Math.max(MONOTONIC_SLACK, (up + down) / 1000);
}

/**
 * Whether a feature that predicts the label beyond noise rises along the rows (an identifier or timestamp then, held
 * to a stricter rule); undefined for one that does not, where the answer would change no verdict and cost a sort.
 */
async function monotonicIfPredictive(engine: Engine, train: Scored, c: Column, s: LabelSignal): Promise<boolean | undefined> {
  return s.train > NOISE_SDS * s.null_sd ? monotonicInRowOrder(engine, train, c) : undefined;
}

/**
 * How well each feature alone predicts `target`, per split (statistics.label_signal): numeric features by their
 * AUC for a binary label (score |2·AUC − 1|), otherwise every feature by the purity of its value (or train
 * quantile bin) groups above the majority-label baseline. Train is scored leave-one-out; test with train's
 * mapping, so a feature that predicts in train but not in test shows as a drop. A target with more than
 * MAX_CLASSES values (regression) gets none.
 */
export async function labelSignals(engine: Engine, loadedTrain: LoadedTable, loadedTest: LoadedTable | null, target: string, classes: Record<string, number>): Promise<Record<string, LabelSignal>> {
  const labels = Object.keys(classes);
  const majority = labels[0];
  if (majority === undefined || labels.length < 2 || labels.length > MAX_CLASSES) return {};
  const train = await scoredRows(engine, loadedTrain, "label_signal_train");
  const test = loadedTest ? await scoredRows(engine, loadedTest, "label_signal_test") : null;
  const y = ident(target);
  const positive = labels.length === 2 ? labels[1]! : null;
  const testTypes = new Map(loadedTest?.columns.map((c) => [c.name, c.type]) ?? []);
  const baseline = classes[majority]! / labels.reduce((s, l) => s + classes[l]!, 0);
  const out: Record<string, LabelSignal> = {};
  for (const c of loadedTrain.columns) {
    if (c.name === target) continue;
    const family = familyOf(c.type);
    const inTest = test && testTypes.has(c.name) ? test : null;
    if (family === "numeric" && positive !== null) {
      const a = await auc(engine, train, c, y, positive);
      if (!a) continue;
      const direction = Math.sign(a.auc - 0.5);
      const t = inTest ? await auc(engine, inTest, c, y, positive) : null;
      out[c.name] = {
        method: "auc",
        train: Math.abs(2 * a.auc - 1),
        null_sd: a.nullSd,
        ...(t ? { test: Math.max(0, direction * (2 * t.auc - 1)), test_null_sd: t.nullSd } : {}),
      };
      out[c.name]!.monotonic = await monotonicIfPredictive(engine, train, c, out[c.name]!);
      continue;
    }
    const edges = family === "numeric" ? await binEdges(engine, train, c) : null;
    const trainKey = keyExpression(c, edges);
    const fitted = await trainPurity(engine, train, trainKey, y, majority);
    if (fitted.n === 0) continue;
    const signal: LabelSignal = { method: "purity", train: aboveBaseline(fitted.accuracy, baseline), null_sd: purityNullSd(baseline, fitted.n) };
    if (inTest) {
      const sameType = testTypes.get(c.name) === c.type;
      const testKey = sameType ? keyExpression(c, edges) : `${ident(c.name)}::VARCHAR`;
      const scored = await testPurity(engine, train, inTest, trainKey, testKey, y, majority);
      if (scored.n > 0) {
        signal.test = aboveBaseline(scored.accuracy, scored.baseline);
        signal.test_null_sd = purityNullSd(scored.baseline, scored.n);
      }
    }
    if (family === "numeric" || family === "temporal") signal.monotonic = await monotonicIfPredictive(engine, train, c, signal);
    out[c.name] = signal;
  }
  return out;
}
