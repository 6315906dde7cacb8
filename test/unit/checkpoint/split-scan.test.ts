import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DType } from "../../../nodes/checkpoint/file/dtypes.js";
import type { RangeScanJob } from "../../../nodes/checkpoint/file/range-scan.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { CUT_ALIGN, planPieces, type ScanSplitter, type TensorRegion } from "../../../nodes/checkpoint/file/split-scan.js";
import { elementSize, layoutOf } from "../../../nodes/checkpoint/file/stats-layout.js";
import { poolScanSplitter } from "../../../workers/scan-splitter.js";
import { Prng } from "../../support/prng.js";
import { fixture } from "./fixtures.js";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-split-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Plan {
  name: string;
  dtype: DType;
  shape: number[];
  /** Units 0…deadUnits-1 are all zero (the dead-unit proxy must merge too). */
  deadUnits?: number;
}

/** Every element type the scanner measures, in odd sizes; byte sizes of 1 and 2 leave later tensors misaligned. */
const PLANS: Plan[] = [
  { name: "u8", dtype: "U8", shape: [200_003] },
  { name: "f32.units", dtype: "F32", shape: [3, 50_001] },
  { name: "bool", dtype: "BOOL", shape: [150_001] },
  { name: "f32.rows", dtype: "F32", shape: [1001, 149], deadUnits: 7 },
  { name: "i8", dtype: "I8", shape: [170_001] },
  { name: "f32.aligned", dtype: "F32", shape: [250, 600], deadUnits: 10 },
  { name: "f16.units", dtype: "F16", shape: [3, 100_001] },
  { name: "bf16.rows", dtype: "BF16", shape: [600, 501], deadUnits: 5 },
  { name: "f16.flat", dtype: "F16", shape: [99_999] },
  { name: "bf16.flat", dtype: "BF16", shape: [100_003] },
  { name: "f64", dtype: "F64", shape: [7, 10_001] },
  { name: "c64", dtype: "C64", shape: [37_501] },
  { name: "c128", dtype: "C128", shape: [18_751] },
  { name: "f8.e4m3", dtype: "F8_E4M3", shape: [3, 66_667] },
  { name: "f8.e5m2", dtype: "F8_E5M2", shape: [200_001] },
  { name: "f8.e4m3fnuz", dtype: "F8_E4M3FNUZ", shape: [199_999] },
  { name: "f8.e5m2fnuz", dtype: "F8_E5M2FNUZ", shape: [5, 40_001] },
  { name: "f8.e8m0", dtype: "F8_E8M0", shape: [190_001] },
  { name: "i16", dtype: "I16", shape: [100_001] },
  { name: "u16", dtype: "U16", shape: [99_997] },
  { name: "i32", dtype: "I32", shape: [50_003] },
  { name: "u32", dtype: "U32", shape: [49_999] },
  { name: "i64", dtype: "I64", shape: [25_001] },
  { name: "u64", dtype: "U64", shape: [24_999] },
];

/** Elements of the tensor's view (complex numbers count two). */
const elementsOf = (p: Plan) => p.shape.reduce((a, b) => a * b, 1) * (p.dtype.startsWith("C") ? 2 : 1);
const numelOf = (p: Plan) => p.shape.reduce((a, b) => a * b, 1);
const isCodes = (dtype: DType) => layoutOf(dtype)!.kind === "codes";

/** Writes element `i` of a tensor's bytes: a value, or NaN / +Inf where asked (ints have neither). */
function writer(dtype: DType, bytes: Uint8Array): (i: number, value: number | "nan" | "inf") => void {
  const layout = layoutOf(dtype)!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (layout.kind === "codes") {
    const nan = layout.table.findIndex(Number.isNaN);
    const inf = layout.table.indexOf(Infinity);
    return (i, v) => {
      const code = v === "nan" ? nan : v === "inf" ? (inf >= 0 ? inf : nan) : v;
      if (layout.bits === 16) view.setUint16(2 * i, code, true);
      else view.setUint8(i, code);
    };
  }
  if (layout.kind === "f32") return (i, v) => view.setFloat32(4 * i, v === "nan" ? Number.NaN : v === "inf" ? Infinity : v, true);
  if (layout.kind === "f64") return (i, v) => view.setFloat64(8 * i, v === "nan" ? Number.NaN : v === "inf" ? Infinity : v, true);
  return () => undefined;
}

/**
 * A safetensors file of PLANS with seeded data, and the regions the scanner will measure. Random codes for 8/16-bit
 * floats (NaN and Inf codes among them), normal-ish values for float32/64, random bytes for integers.
 */
function layoutFile(): { header: Buffer; regions: TensorRegion[]; data: Uint8Array[] } {
  const json: Record<string, unknown> = {};
  let offset = 0;
  const sizes = PLANS.map((p) => elementsOf(p) * elementSize(layoutOf(p.dtype)!));
  PLANS.forEach((p, i) => {
    json[p.name] = { dtype: p.dtype, shape: p.shape, data_offsets: [offset, offset + sizes[i]!] };
    offset += sizes[i]!;
  });
  let text = JSON.stringify(json);
  text += " ".repeat((8 - (text.length % 8)) % 8);
  const header = Buffer.alloc(8 + text.length);
  header.writeBigUInt64LE(BigInt(text.length));
  header.write(text, 8);
  const random = new Prng(18);
  let start = header.length;
  const regions: TensorRegion[] = [];
  const data = PLANS.map((p, i) => {
    const bytes = new Uint8Array(sizes[i]!);
    const layout = layoutOf(p.dtype)!;
    const put = writer(p.dtype, bytes);
    for (let e = 0; e < elementsOf(p); e++) {
      if (layout.kind === "codes") put(e, Math.floor(random.next() * (1 << layout.bits)));
      else if (layout.kind === "f32" || layout.kind === "f64") put(e, random.next() < 0.01 ? 0 : (random.next() + random.next() - 1) * 0.1 + 0.05);
    }
    if (layout.kind === "int" || layout.kind === "int64") for (let b = 0; b < bytes.length; b++) bytes[b] = p.dtype === "BOOL" ? (random.next() < 0.5 ? 1 : 0) : Math.floor(random.next() * 256);
    if (p.deadUnits) bytes.fill(0, 0, (sizes[i]! / p.shape[0]!) * p.deadUnits);
    const units = p.shape.length >= 2 ? p.shape[0]! : null;
    regions.push({ dtype: p.dtype, units, numel: numelOf(p), start, end: start + sizes[i]! });
    start += sizes[i]!;
    return bytes;
  });
  return { header, regions, data };
}

/** The worker pool, recording the pieces it was given. */
function recording(options: Partial<ScanSplitter> = {}): ScanSplitter & { jobs: RangeScanJob[]; finished: number } {
  const jobs: RangeScanJob[] = [];
  const splitter = {
    ...poolScanSplitter,
    minBytes: 0,
    ...options,
    jobs,
    finished: 0,
    run: async (job: RangeScanJob, signal: AbortSignal) => {
      jobs.push(job);
      const parts = await poolScanSplitter.run(job, signal);
      splitter.finished++;
      return parts;
    },
  };
  return splitter;
}

describe("planPieces", () => {
  const { regions } = layoutFile();
  const total = regions.reduce((n, r) => n + r.end - r.start, 0);

  it.each([1, 2, 5, 48])("covers every byte once, in order, cut at aligned offsets, into %i pieces", (pieces) => {
    // Out of file order on purpose: the plan reads the file front to back.
    const plan = planPieces([...regions].reverse(), pieces);
    expect(plan.length).toBeLessThanOrEqual(pieces);
    const slices = plan.flat();
    expect(slices.reduce((n, s) => n + s.to - s.from, 0)).toBe(total);
    for (let i = 1; i < slices.length; i++) expect(slices[i]!.from).toBeGreaterThanOrEqual(slices[i - 1]!.to);
    for (const s of slices) {
      const r = [...regions].reverse()[s.region]!;
      expect((s.from - r.start) % CUT_ALIGN === 0 || s.from === r.start).toBe(true);
      expect(s.first).toBe((s.from - r.start) / elementSize(layoutOf(r.dtype)!));
    }
    // Pieces are about equal (within the alignment and a rounding of the goal).
    for (const p of plan.slice(0, -1)) expect(Math.abs(p.reduce((n, s) => n + s.to - s.from, 0) - total / pieces)).toBeLessThanOrEqual(CUT_ALIGN);
  });

  it("leaves a region with nothing to read out", () => {
    const empty: TensorRegion = { dtype: "F32", units: null, numel: 0, start: 100, end: 100 };
    expect(planPieces([empty, { ...empty, numel: 4096, end: 100 + 4 * 4096 }], 3).flat().map((s) => s.region)).toEqual([1, 1, 1]);
  });
});

describe("a checkpoint scan split across the worker pool", () => {
  const PIECES = 61;
  const { header, regions, data } = layoutFile();
  // NaN and +Inf on both sides of every cut inside a tensor, where a piece hands over to the next.
  const cuts = planPieces(regions, PIECES).flat().filter((s) => s.first > 0);
  for (const cut of cuts) {
    const put = writer(regions[cut.region]!.dtype, data[cut.region]!);
    put(cut.first - 1, "nan");
    put(cut.first, "inf");
  }
  const file = join(scratch, "every-dtype.safetensors");
  writeFileSync(file, Buffer.concat([header, ...data]));

  it.each([PIECES, 3])("%i pieces merge to the single-thread statistics for every element type (counts, extremes, codes and units exactly)", async (pieces) => {
    const inline = await scanCheckpointFile(file);
    const splitter = recording({ pieces });
    const split = await scanCheckpointFile(file, { split: splitter });
    expect(splitter.jobs.length).toBe(pieces);
    const slices = splitter.jobs.flatMap((j) => j.slices);
    if (pieces === PIECES) {
      // Every tensor spans pieces, and each piece boundary falls inside a tensor, where the NaN and Inf are.
      expect(new Set(cuts.map((c) => c.region)).size).toBe(PLANS.length);
      expect(slices.filter((s) => s.first > 0).map((s) => s.from)).toEqual(cuts.map((c) => c.from));
    } else {
      // Most tensors are read whole by one worker, which finishes their statistics itself.
      expect(slices.filter((s) => s.whole).length).toBeGreaterThan(PLANS.length / 2);
    }
    expect(split.bytesScanned).toBe(inline.bytesScanned);
    expect(split.tensors.map((t) => t.name)).toEqual(PLANS.map((p) => p.name));
    for (const [i, t] of split.tensors.entries()) {
      const want = inline.tensors[i]!.stats!;
      const got = t.stats!;
      if (!["int", "int64"].includes(layoutOf(t.dtype!)!.kind)) expect(want.nanCount + want.posInfCount, t.name).toBeGreaterThan(0);
      if (isCodes(t.dtype!)) {
        // 8/16-bit floats: code counts add up exactly, and the moments are computed once from them.
        expect(got, t.name).toEqual(want);
        continue;
      }
      // Float sums are formed over other blocks and combined in another order (Chan et al.'s update): equal to
      // rounding.
      expect({ ...got, mean: 0, std: 0, l2: 0 }, t.name).toEqual({ ...want, mean: 0, std: 0, l2: 0 });
      for (const key of ["mean", "std", "l2"] as const) {
        expect(Math.abs(got[key]! - want[key]!), `${t.name} ${key}`).toBeLessThanOrEqual(1e-12 * (Math.abs(want[key]!) + want.std!));
      }
    }
    const named = (name: string) => split.tensors.find((t) => t.name === name)!.stats!;
    for (const name of ["f32.rows", "f32.aligned", "bf16.rows"]) expect(named(name).deadUnits, name).toBeGreaterThan(0);
  });

  it("keeps a file below the threshold on the calling thread", async () => {
    const splitter = recording({ minBytes: undefined });
    const scan = await scanCheckpointFile(fixture("safetensors/benign-mlp.safetensors"), { split: splitter });
    expect(splitter.jobs).toEqual([]);
    expect(scan.tensors.every((t) => t.stats !== null)).toBe(true);
  });

  it("stops the workers' scans when aborted mid-scan, with the signal's reason", async () => {
    const controller = new AbortController();
    const splitter = recording({ pieces: 64 });
    const progress: number[] = [];
    const scan = scanCheckpointFile(file, {
      split: splitter,
      signal: controller.signal,
      // Aborted when the first piece is merged; the pool removes queued pieces and stops the running ones' threads.
      onProgress: (p) => {
        progress.push(p.bytesRead / p.bytesTotal);
        controller.abort(new Error("deadline reached"));
      },
    });
    await expect(scan).rejects.toThrow("deadline reached");
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.at(-1)).toBeLessThan(1);
    expect(splitter.finished).toBeLessThan(64);
    // The pool still serves the next scan.
    const again = await scanCheckpointFile(file, { split: recording({ pieces: 3 }) });
    expect(again.tensors.every((t) => t.stats !== null)).toBe(true);
  });
});
