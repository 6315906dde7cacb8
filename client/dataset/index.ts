import { classCounts } from "./classes.js";
import { type ColumnProfiles, profileColumns } from "./columns.js";
import { conflictingLabels } from "./conflicting-labels.js";
import { categoricalDrift } from "./drift.js";
import { type Engine, openEngine } from "./engine.js";
import { DatasetError, type DatasetErrorCode } from "./errors.js";
import { labelSignals } from "./label-signal.js";
import { type RowMatches, rowMatches } from "./rows.js";
import { type ConflictingLabels, type DatasetArtifacts, DatasetArtifactsSchema, type DatasetStatistics } from "./schema.js";
import { dataSourceOf, inPlaceReadError, type LoadedTable, loadTable } from "./source.js";
import { timeSplit } from "./time-split.js";

export { DatasetError, isDatasetError, type DatasetErrorCode } from "./errors.js";
export type { DatasetArtifacts, DatasetStatistics } from "./schema.js";
export { DatasetArtifactsSchema } from "./schema.js";

export interface DatasetInput {
  /** The training (or only) data file. */
  data: string;
  /** A held-out file: adds per-split rows and classes, train/test overlap and drift. */
  test?: string;
  /** The label column: class distribution per split, each feature's label signal, conflicting labels. */
  target?: string;
  /** The column train and test are split on in time (else the first date/time column both files have). */
  timeColumn?: string;
  /** Where DuckDB may spill (OS temp dir by default). */
  workDir?: string;
  threads?: number;
  /** Called now and then with the share of the current step done, for a progress bar. */
  onProgress?: (step: string, done: number | null) => void;
}

/**
 * Computes `dataset_artifacts` from data files (CSV, TSV, Parquet, JSON Lines, gzip text) with DuckDB: each file
 * is parsed once into columnar memory that spills to disk, then every statistic family is one SQL pass.
 * Bad input rejects with a DatasetError naming the file, column and line.
 */
export async function computeDatasetArtifacts(input: DatasetInput): Promise<DatasetArtifacts> {
  const sources = { train: dataSourceOf(input.data), test: input.test ? dataSourceOf(input.test) : null };
  const engine = await openEngine({ ...(input.workDir ? { workDir: input.workDir } : {}), ...(input.threads ? { threads: input.threads } : {}) });
  const step = async <T>(name: string, work: () => Promise<T>, on: Engine = engine): Promise<T> => {
    if (!input.onProgress) return work();
    const report = input.onProgress;
    report(name, 0);
    const timer = setInterval(() => report(name, on.progress()), 200);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      report(name, 1);
    }
  };
  try {
    const train = await step(`reading ${input.data}`, () => loadTable(engine, sources.train, "train"));
    const test = sources.test ? await step(`reading ${input.test}`, () => loadTable(engine, sources.test!, "test")) : null;
    if (input.target) checkColumn(input.target, "UNKNOWN_TARGET", train, test);
    if (input.timeColumn) checkColumn(input.timeColumn, "UNKNOWN_TIME_COLUMN", train, test);
    const { columns, numericDrift, matches } = await columnsAndRows(engine, train, test, input.target ?? null, step);
    const statistics: DatasetStatistics = {
      num_rows: train.rows + (test?.rows ?? 0),
      splits: { train: { num_rows: train.rows }, ...(test ? { test: { num_rows: test.rows } } : {}) },
      columns,
      duplicates: matches.duplicates,
    };
    if (input.target) {
      const target = input.target;
      const trainClasses = await classCounts(engine, train, target);
      statistics.class_distribution = test ? { train: trainClasses, test: await classCounts(engine, test, target) } : trainClasses;
      const signals = await step("label signal", () => labelSignals(engine, train, test, target, trainClasses));
      if (Object.keys(signals).length) statistics.label_signal = signals;
      if (matches.conflicts) statistics.conflicting_labels = matches.conflicts;
    }
    const times = test ? await timeSplit(engine, train, test, input.timeColumn ?? null) : null;
    if (times) statistics.time_split = times;
    if (matches.overlap) statistics.train_test_overlap = matches.overlap;
    if (test) {
      const categorical = await step("drift", () => categoricalDrift(engine, train, test, (c) => columns[c]?.unique ?? Infinity));
      statistics.drift = Object.fromEntries(train.columns.flatMap((c) => {
        const d = numericDrift[c.name] ?? categorical[c.name];
        return d ? [[c.name, d]] : [];
      }));
    }
    const artifacts: DatasetArtifacts = {
      metadata: {
        source: input.data,
        ...(input.test ? { test_source: input.test } : {}),
        ...(input.target ? { target: input.target } : {}),
        ...(input.timeColumn ? { time_column: input.timeColumn } : {}),
        modality: "tabular",
        computed_by: `ml-diagnose (DuckDB ${await engine.version()})`,
      },
      statistics,
    };
    return DatasetArtifactsSchema.parse(artifacts);
  } catch (e) {
    throw inPlaceReadError(e, [sources.train, sources.test]) ?? e;
  } finally {
    await engine.close();
  }
}

type Step = <T>(name: string, work: () => Promise<T>, on?: Engine) => Promise<T>;

/** Row matches, and with a target the train rows whose features repeat with another label. */
type RowFacts = RowMatches & { conflicts: ConflictingLabels | null };

/**
 * Column statistics and the row facts (duplicate and overlapping rows, conflicting labels), the second on a
 * connection of its own at the same time: the column statistics alternate DuckDB work with JS work on sorted
 * values and with many short queries, whose idle cores the row hashing fills.
 */
async function columnsAndRows(engine: Engine, train: LoadedTable, test: LoadedTable | null, target: string | null, step: Step): Promise<ColumnProfiles & { matches: RowFacts }> {
  const other = await engine.fork();
  const matching = rowMatches(other, train, test).then(async (m): Promise<RowFacts> => ({ ...m, conflicts: target ? await conflictingLabels(other, train, target) : null }));
  // Awaited below, after the column statistics; this keeps its failure from going unhandled meanwhile.
  matching.catch(() => undefined);
  try {
    const profiles = await step("column statistics", () => profileColumns(engine, train, test));
    return { ...profiles, matches: await step(`${test ? "duplicate and overlapping rows" : "duplicate rows"}${target ? ", conflicting labels" : ""}`, () => matching, other) };
  } finally {
    await matching.catch(() => undefined);
    await other.close();
  }
}

/** `--target` and `--time-column` must name a column of every file given. */
function checkColumn(name: string, code: DatasetErrorCode & `UNKNOWN_${string}`, ...tables: Array<LoadedTable | null>): void {
  for (const t of tables) {
    if (!t || t.columns.some((c) => c.name === name)) continue;
    const names = t.columns.map((c) => c.name);
    const close = names.find((n) => n.toLowerCase() === name.toLowerCase());
    throw new DatasetError(
      code,
      `${t.source.path}: no column "${name}"${code === "UNKNOWN_TIME_COLUMN" ? " (--time-column)" : ""}${close ? `; did you mean "${close}"?` : ""} (columns: ${names.slice(0, 12).join(", ")}${names.length > 12 ? ", …" : ""})`,
      { file: t.source.path, column: name },
    );
  }
}
