import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { openEngine } from "../../../client/dataset/engine.js";
import { computeDatasetArtifacts, type DatasetError, isDatasetError } from "../../../client/dataset/index.js";

const dir = mkdtempSync(join(tmpdir(), "dataset-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function failure(input: Parameters<typeof computeDatasetArtifacts>[0]): Promise<DatasetError> {
  const outcome = await computeDatasetArtifacts(input).then(
    () => null,
    (e: unknown) => e,
  );
  if (!isDatasetError(outcome)) throw new Error(`expected a DatasetError, got ${String(outcome)}`);
  return outcome;
}

/** A numeric column for more lines than DuckDB samples for types (20 480), then text. */
const lateText = ["a,b", ...Array.from({ length: 30_000 }, (_, i) => `${i},q`), "oops,q", "7,q"].join("\n");

describe("bad input files are refused with the file, column and line", () => {
  it("names the first ragged line of a CSV, plain or gzip", async () => {
    const e = await failure({ data: file("ragged.csv", "a,b\n1,2\n3,4,5\n6,7\n") });
    expect([e.code, e.where.line]).toEqual(["RAGGED_ROWS", 3]);
    expect(e.message).toContain("ragged.csv, line 3");
    const short = await failure({ data: file("short.tsv.gz", gzipSync("a\tb\n1\t2\n3\t4\n5\n")) });
    expect([short.code, short.where.line]).toEqual(["RAGGED_ROWS", 4]);
  });

  it("names a ragged line past the lines DuckDB samples to detect the dialect", async () => {
    const late = ["a,b", ...Array.from({ length: 30_000 }, (_, i) => `${i},q`), "5,q,extra", "7,q"].join("\n");
    expect(await failure({ data: file("late-ragged.csv", late) })).toMatchObject({ code: "RAGGED_ROWS", where: { line: 30_002 } });
  });

  it("refuses a CSV without a header row", async () => {
    const e = await failure({ data: file("nohdr.csv", "1,x\n2,y\n3,z\n") });
    expect(e.code).toBe("NO_HEADER");
    expect(e.message).toMatch(/nohdr\.csv: line 1 looks like data/);
  });

  it("names the column and line where a numeric CSV column turns to text", async () => {
    const e = await failure({ data: file("late.csv", lateText) });
    expect(e).toMatchObject({ code: "MIXED_TYPES", where: { column: "a", line: 30_002 } });
    expect(e.message).toContain('"oops"');
  });

  it("names the column and line where JSON Lines values change type", async () => {
    const e = await failure({ data: file("mixed.jsonl", '{"a": 1, "b": "x"}\n{"a": 2, "b": "y"}\n{"a": "three", "b": "z"}\n') });
    expect(e).toMatchObject({ code: "MIXED_TYPES", where: { column: "a", line: 3 } });
    expect(e.message).toContain("line 3 holds text, earlier lines a number");
  });

  it("refuses an unknown --target and suggests the column with other case", async () => {
    const data = file("ok.csv", "x,Label\n1,a\n2,b\n");
    const e = await failure({ data, target: "label" });
    expect(e).toMatchObject({ code: "UNKNOWN_TARGET", where: { column: "label" } });
    expect(e.message).toContain('did you mean "Label"?');
    const inTest = await failure({ data, test: file("other.csv", "x,y\n1,a\n"), target: "Label" });
    expect(inTest.where.file).toMatch(/other\.csv$/);
  });

  it("refuses missing, empty and unknown-format files before reading them", async () => {
    expect((await failure({ data: join(dir, "absent.csv") })).code).toBe("UNREADABLE_FILE");
    expect((await failure({ data: file("empty.csv", "") })).message).toContain("the file is empty");
    expect((await failure({ data: file("table.xlsx", "x") })).message).toMatch(/unknown data format/);
    expect((await failure({ data: file("t.parquet.gz", "x") })).code).toBe("UNREADABLE_FILE");
    expect((await failure({ data: file("garbage.parquet", "not parquet at all") })).message).toMatch(/garbage\.parquet: cannot read garbage\.parquet as PARQUET/);
  });

  it("names a Parquet file whose pages are broken, though it is read in place after its footer checked out", async () => {
    const good = join(dir, "good.parquet");
    const engine = await openEngine();
    try {
      await engine.run(`COPY (SELECT hash(i) % 1000003 AS x, 'v' || (i % 7) AS s FROM range(200000) t(i)) TO '${good}' (FORMAT parquet, COMPRESSION snappy)`);
    } finally {
      await engine.close();
    }
    const bytes = readFileSync(good);
    // Zero the middle of the data pages; the footer at the end stays whole, so describing the file still works.
    bytes.fill(0, 4096, Math.floor(bytes.length / 2));
    const e = await failure({ data: file("broken.parquet", bytes) });
    expect([e.code, e.where.file]).toEqual(["UNREADABLE_FILE", join(dir, "broken.parquet")]);
    expect(e.message).toMatch(/broken\.parquet: cannot read broken\.parquet as PARQUET/);
  });
});
