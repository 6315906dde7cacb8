import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { computeDatasetArtifacts, type DatasetArtifacts } from "../../../client/dataset/index.js";
import { parseDatasetArtifact } from "../../../nodes/dataset/parse.js";
import { expectClose, type PandasReference, sameTop } from "../../support/pandas-reference.js";

/** Written by scripts/fixtures/client_dataset.py with pandas 2.2 and scipy from the same files. */
const dir = fileURLToPath(new URL("../../fixtures/client-dataset/", import.meta.url));
type Expected = PandasReference & Required<Pick<PandasReference, "class_distribution" | "train_test_overlap" | "drift">> & { splits: { train: number; test: number } };
const expected = JSON.parse(readFileSync(`${dir}expected.json`, "utf8")) as Expected;

const FORMATS = ["csv", "tsv", "csv.gz", "tsv.gz", "parquet", "jsonl", "jsonl.gz"] as const;

describe.each(FORMATS)("dataset statistics from %s files agree with pandas", (format) => {
  let result: DatasetArtifacts;
  const compute = async () => (result ??= await computeDatasetArtifacts({ data: `${dir}train.${format}`, test: `${dir}test.${format}`, target: "label" }));

  it("counts rows per split, and missing, distinct and top values per column", async () => {
    const s = (await compute()).statistics;
    expect(s.splits).toEqual({ train: { num_rows: expected.splits.train }, test: { num_rows: expected.splits.test } });
    expect(s.num_rows).toBe(expected.splits.train + expected.splits.test);
    expect(Object.keys(s.columns)).toEqual(Object.keys(expected.columns));
    for (const [name, want] of Object.entries(expected.columns)) {
      const got = s.columns[name]!;
      expect({ count: got.count, missing: got.missing, unique: got.unique, top_frequency: got.top_frequency }, name).toEqual({
        count: want.count,
        missing: want.missing,
        unique: want.unique,
        top_frequency: want.top_frequency,
      });
      expect(got.unique_estimated, name).toBeUndefined();
      expect(sameTop(got.top, want.top), `${name} top ${got.top} vs pandas ${String(want.top)}`).toBe(true);
      expectClose(got.missing_fraction, want.missing / expected.splits.train, `${name}.missing_fraction`);
    }
  });

  it("gives mean, std (ddof 1), min, max and linearly interpolated quartiles of numeric columns", async () => {
    const s = (await compute()).statistics;
    for (const [name, want] of Object.entries(expected.columns)) {
      const got = s.columns[name]!;
      if (want.mean === undefined) {
        expect([got.mean, got.std, got.p50], name).toEqual([null, null, null]);
        continue;
      }
      for (const key of ["mean", "std", "min", "max", "p25", "p50", "p75"] as const) expectClose(got[key], want[key]!, `${name}.${key}`);
    }
  });

  it("gives class counts per split, duplicates and the train/test overlap", async () => {
    const s = (await compute()).statistics;
    expect(s.class_distribution).toEqual(expected.class_distribution);
    expect(s.duplicates.count).toBe(expected.duplicates.count);
    expectClose(s.duplicates.fraction, expected.duplicates.fraction, "duplicates.fraction");
    expect(s.train_test_overlap?.count).toBe(expected.train_test_overlap.count);
    expectClose(s.train_test_overlap?.fraction, expected.train_test_overlap.fraction, "train_test_overlap.fraction");
  });

  it("gives PSI and KS per numeric column and PSI and total variation per categorical one", async () => {
    const drift = (await compute()).statistics.drift!;
    expect(Object.keys(drift).sort()).toEqual(Object.keys(expected.drift).sort());
    for (const [name, want] of Object.entries(expected.drift)) {
      const got = drift[name]! as Record<string, number | string>;
      expect(got.kind, name).toBe(want.kind);
      for (const [key, v] of Object.entries(want)) if (typeof v === "number") expectClose(got[key] as number, v, `drift.${name}.${key}`);
    }
  });
});

describe("the artifact is one the service reads", () => {
  it("parses into the dataset model with its columns, splits, classes, duplicates and overlap", async () => {
    const artifacts = await computeDatasetArtifacts({ data: `${dir}train.parquet`, test: `${dir}test.parquet`, target: "label" });
    const parsed = parseDatasetArtifact(artifacts as unknown as Record<string, unknown>);
    expect(parsed.target).toBe("label");
    expect(parsed.splitRows).toEqual({ train: expected.splits.train, test: expected.splits.test });
    expect(parsed.classCounts.train).toEqual(expected.class_distribution.train);
    expect(parsed.duplicates?.count).toBe(expected.duplicates.count);
    expect(parsed.trainTestOverlap?.count).toBe(expected.train_test_overlap.count);
    const kinds = Object.fromEntries(parsed.columns.map((c) => [c.name, c.kind]));
    expect(kinds).toEqual({ id: "numeric", age: "numeric", income: "numeric", score: "numeric", city: "categorical", note: "categorical", member: "boolean", label: "numeric" });
    expect(parsed.columns.find((c) => c.name === "income")?.missing).toBe(expected.columns.income!.missing);
  });
});

describe("progress", () => {
  it("reports each step's start and end, in order, for the command's progress bar", async () => {
    const events: Array<[string, number | null]> = [];
    await computeDatasetArtifacts({ data: `${dir}train.csv`, test: `${dir}test.csv`, onProgress: (step, done) => events.push([step, done]) });
    const ends = events.filter(([, done]) => done === 1).map(([step]) => step);
    expect(ends).toEqual([`reading ${dir}train.csv`, `reading ${dir}test.csv`, "column statistics", "duplicate and overlapping rows", "drift"]);
    for (const step of ends) expect(events.findIndex(([s, d]) => s === step && d === 0)).toBeLessThan(events.findIndex(([s, d]) => s === step && d === 1));
    expect(events.every(([, done]) => done === null || (done >= 0 && done <= 1))).toBe(true);
  });
});
