import { describe, expect, it } from "vitest";
import { Float64Column } from "../../../artifacts/float64-column.js";
import { isNumberArray } from "../../../artifacts/json-values.js";
import { decodeAnalysisRequest } from "../../../artifacts/request.js";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { trainingHistoryRequest } from "../../../bench/data/training-history.js";
import { parseJsonBody, WORKER_PARSE_MIN_BYTES } from "../../../server/json-body.js";
import { MIN_COLUMN_LENGTH, packNumberColumns, unpackNumberColumns } from "../../../workers/number-columns.js";

const long = (f: (i: number) => number | null) => Array.from({ length: MIN_COLUMN_LENGTH + 3 }, (_, i) => f(i));

describe("number columns", () => {
  it("packs long number arrays as columns without touching the tree it was given, and unpacks the same tree", async () => {
    const tree = {
      metrics: { loss: long((i) => 1 / (i + 1)), acc: long((i) => (i % 7 === 0 ? null : i / 10)), short: [1, 2, 3] },
      rows: [long((i) => -i), { name: "x", mixed: long((i) => (i === 5 ? Number.NaN : i)).concat(["text" as never]) }],
    };
    const copy = structuredClone(tree);
    const { value, columns, transfer, size } = packNumberColumns(tree);
    expect(tree).toEqual(copy);
    expect(tree.metrics.loss).toHaveLength(MIN_COLUMN_LENGTH + 3);
    // Only the containers on the way to a column are copied; the rest is shared, not walked into a copy.
    const packedTree = value as typeof tree;
    expect(packedTree.rows[1]).toBe(tree.rows[1]);
    expect(packedTree.metrics.short).toBe(tree.metrics.short);
    expect(packedTree.metrics).not.toBe(tree.metrics);
    expect(columns.map((c) => c.path)).toEqual([["metrics", "loss"], ["metrics", "acc"], ["rows", 0]]);
    expect(transfer).toHaveLength(4);
    expect(size).toBeGreaterThan(3 * 8 * MIN_COLUMN_LENGTH);
    const back = (await unpackNumberColumns(structuredClone({ value, columns }, { transfer }))) as typeof tree;
    expect(back).toEqual(copy);
    // Request checks skip the elements of the rebuilt arrays (numbers and nulls by construction), and only theirs.
    expect([back.metrics.loss, back.metrics.acc, back.rows[0]].map((a) => isNumberArray(a as unknown[]))).toEqual([true, true, true]);
    expect([back.metrics.short, (back.rows[1] as { mixed: unknown[] }).mixed, tree.metrics.loss].map((a) => isNumberArray(a))).toEqual([false, false, false]);
  });

  it("takes a rebuilt array's column back when packing it again, leaving the array whole", async () => {
    const packed = packNumberColumns({ loss: long((i) => i / 3) });
    const [column] = packed.columns;
    const back = (await unpackNumberColumns(packed)) as { loss: number[] };
    const again = packNumberColumns(back);
    expect(again.columns[0]!.values).toBe(column!.values);
    expect(back.loss).toEqual(long((i) => i / 3));
    // Once: the column has been handed on (its buffer may be transferred), so a third packing converts the array.
    expect(packNumberColumns(back).columns[0]!.values).not.toBe(column!.values);
  });

  it("puts a column its reader takes in place as a Float64Column, buffers and all, and rebuilds the others", async () => {
    const tree = { metrics: { loss: long((i) => (i === 2 ? null : i / 3)), acc: long((i) => i) } };
    const packed = packNumberColumns(tree);
    const [loss, acc] = packed.columns;
    const back = (await unpackNumberColumns(packed, (path) => path[1] === "loss")) as { metrics: { loss: Float64Column; acc: number[] } };
    expect(back.metrics.loss).toBeInstanceOf(Float64Column);
    expect(back.metrics.loss.values).toBe(loss!.values);
    expect(back.metrics.loss.nulls).toBe(loss!.nulls);
    expect(back.metrics.acc).toEqual(tree.metrics.acc);
    expect(acc!.nulls).toBeNull();
  });

  it("keeps a \"__proto__\" key as data, as JSON.parse does, through a round trip", async () => {
    const tree = parseTolerantJson(`{"__proto__": {"polluted": [${long((i) => i).join(",")}]}, "a": 1}`) as Record<string, unknown>;
    const packed = packNumberColumns(tree);
    const back = (await unpackNumberColumns(packed)) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect((Object.getOwnPropertyDescriptor(back, "__proto__")!.value as { polluted: number[] }).polluted).toHaveLength(MIN_COLUMN_LENGTH + 3);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("still finds a bad value in a large body's metric arrays: only the arrays that were all numbers skip the check", { timeout: 30_000 }, async () => {
    const request = trainingHistoryRequest(50_000) as { training_artifacts: { metrics: Record<string, unknown[]> } };
    request.training_artifacts.metrics.val_loss![40_000] = "diverged";
    const body = Buffer.from(JSON.stringify(request));
    expect(body.length).toBeGreaterThan(WORKER_PARSE_MIN_BYTES);
    const parsed = await parseJsonBody(body);
    expect(() => decodeAnalysisRequest(parsed, "bad")).toThrow(/training_artifacts\.metrics\.val_loss\[40000\]: expected a number/);
  });
});

describe("number columns kept in a request (large bodies)", () => {
  const history = () => {
    const request = trainingHistoryRequest(30_000) as { training_artifacts: { metrics: Record<string, unknown[]> }; dataset_artifacts?: unknown };
    request.training_artifacts.metrics.val_loss![7] = null;
    request.dataset_artifacts = { histogram: long((i) => i) };
    return request;
  };

  it("keeps a training history's metric arrays as shared Float64Columns, rebuilds the others, and the request decodes", async () => {
    const request = history();
    const text = JSON.stringify(request);
    const parsed = (await parseJsonBody(Buffer.from(text))) as typeof request & { training_artifacts: { metrics: Record<string, Float64Column> } };
    const { metrics } = parsed.training_artifacts;
    expect(Object.values(metrics).every((m) => m instanceof Float64Column && m.values.buffer instanceof SharedArrayBuffer)).toBe(true);
    expect(metrics.val_loss!.nulls?.[7]).toBe(1);
    expect(Array.isArray((parsed.dataset_artifacts as { histogram: unknown }).histogram)).toBe(true);
    // A queued job's body serializes as it arrived; the request's checks pass over the columns.
    expect(JSON.stringify(parsed)).toBe(text);
    expect(decodeAnalysisRequest(parsed, "columns").artifacts.map((a) => a.kind)).toEqual(["dataset", "training"]);
  });

  it("parses a body in shared memory (both pool threads) as one in ordinary memory, and refuses a broken one alike", async () => {
    const inShared = (text: string) => {
      const bytes = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(text)));
      bytes.write(text);
      return bytes;
    };
    const text = JSON.stringify(history());
    expect(JSON.stringify(await parseJsonBody(inShared(text)))).toBe(JSON.stringify(await parseJsonBody(Buffer.from(text))));
    const broken = text.replace("0.", "0.x");
    const refusal = (body: Buffer) => parseJsonBody(body).then(() => "parsed", (err: Error) => `${err.name}: ${err.message}`);
    const fromShared = await refusal(inShared(broken));
    expect(fromShared).toMatch(/^RequestDecodeError: \(body\): invalid JSON: /);
    expect(fromShared).toBe(await refusal(Buffer.from(broken)));
  });

  it("lends a Float64Column to a worker without giving up its memory: shared as it is, or else copied", () => {
    const shared = new Float64Array(new SharedArrayBuffer(8 * MIN_COLUMN_LENGTH)).fill(2);
    const own = new Float64Array(MIN_COLUMN_LENGTH).fill(3);
    const tree = { a: new Float64Column(shared, null), b: new Float64Column(own, new Uint8Array(MIN_COLUMN_LENGTH)) };
    const { value, columns, transfer } = packNumberColumns(tree);
    expect(value).toEqual({ a: null, b: null });
    expect(columns[0]!.values).toBe(shared);
    expect(columns[1]!.values).not.toBe(own);
    expect(Array.from(columns[1]!.values)).toEqual(Array.from(own));
    expect(transfer).toEqual([columns[1]!.values.buffer, columns[1]!.nulls!.buffer]);
    structuredClone(columns, { transfer });
    expect([tree.a.length, tree.b.length, tree.b.nulls!.length]).toEqual([MIN_COLUMN_LENGTH, MIN_COLUMN_LENGTH, MIN_COLUMN_LENGTH]);
  });
});
