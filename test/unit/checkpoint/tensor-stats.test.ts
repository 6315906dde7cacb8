import { describe, expect, it } from "vitest";
import { TensorStatsAccumulator } from "../../../nodes/checkpoint/file/tensor-stats.js";
import type { DType } from "../../../nodes/checkpoint/file/dtypes.js";

/** Seeded values (xorshift) so the test is deterministic. */
function values(n: number, seed = 7): Float64Array {
  let s = seed;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = ((s >>> 0) / 2 ** 32 - 0.5) * 0.2;
  }
  return out;
}

function feed(dtype: DType, bytes: Uint8Array, pieces: number[], units: number | null = null, numel = 0) {
  const acc = new TensorStatsAccumulator(dtype, units, numel);
  let at = 0;
  for (const p of pieces) {
    acc.push(bytes.subarray(at, at + p));
    at += p;
  }
  acc.push(bytes.subarray(at));
  return acc.finish();
}

describe("streaming tensor statistics", () => {
  const data = values(200_003);
  const f32 = new Float32Array(data);
  const bytes = new Uint8Array(f32.buffer);

  it("gives the same answer whatever the piece sizes and alignments", () => {
    const whole = feed("F32", bytes, []);
    // Odd piece sizes split elements across pieces and leave misaligned views.
    const split = feed("F32", bytes, [1, 2, 3, 4097, 65535, 7, 131071]);
    // Blocks fall elsewhere, so the sums round differently in the last bits only; counts are exact.
    expect({ ...split, mean: 0, std: 0, l2: 0 }).toEqual({ ...whole, mean: 0, std: 0, l2: 0 });
    expect(split.mean).toBeCloseTo(whole.mean!, 12);
    expect(split.std).toBeCloseTo(whole.std!, 12);
    expect(split.l2).toBeCloseTo(whole.l2!, 9);
    expect(whole.mean).toBeCloseTo(f32.reduce((a, b) => a + b, 0) / f32.length, 10);
    expect(whole.count).toBe(200_003);
  });

  it("keeps the variance exact when the mean dwarfs the spread", () => {
    const shifted = new Float64Array(100_000).map((_, i) => 10_000 + (i % 2 === 0 ? 0.01 : -0.01));
    const s = feed("F64", new Uint8Array(shifted.buffer), []);
    expect(s.std).toBeCloseTo(0.01, 9);
    expect(s.mean).toBeCloseTo(10_000, 9);
  });

  it("counts NaN, +Inf and −Inf and leaves them out of the moments", () => {
    const a = new Float32Array([1, Number.NaN, 2, Number.POSITIVE_INFINITY, 3, Number.NEGATIVE_INFINITY, 0, -0]);
    expect(feed("F32", new Uint8Array(a.buffer), [])).toMatchObject({ count: 8, nanCount: 1, posInfCount: 1, negInfCount: 1, zeroCount: 2, min: 0, max: 3, mean: 1.2 });
  });

  it("decodes fp16 including subnormals, infinities and NaN", () => {
    // 0x3c00 = 1, 0xc000 = −2, 0x0001 = 2^-24, 0x7bff = 65504, 0x7c00 = +Inf, 0x7e00 = NaN
    const codes = new Uint16Array([0x3c00, 0xc000, 0x0001, 0x7bff, 0x7c00, 0x7e00]);
    const s = feed("F16", new Uint8Array(codes.buffer), [3]);
    expect(s).toMatchObject({ nanCount: 1, posInfCount: 1, min: -2, max: 65504 });
    expect(s.mean).toBeCloseTo((1 - 2 + 2 ** -24 + 65504) / 4, 6);
  });

  it("reads signed 64-bit integers exactly", () => {
    const ints = new BigInt64Array([0n, -5n, 4200n, 2n ** 40n]);
    expect(feed("I64", new Uint8Array(ints.buffer), [5])).toMatchObject({ min: -5, max: 2 ** 40, zeroCount: 1 });
  });

  it("counts output units whose weights are all ~zero", () => {
    const w = new Float32Array(10 * 50).map((_, i) => (Math.floor(i / 50) < 6 ? 0 : 0.1 * ((i % 7) - 3)));
    for (const dtype of ["F32", "F16"] as const) {
      const raw = dtype === "F32" ? new Uint8Array(w.buffer) : new Uint8Array(new Uint16Array(w.length).map((_, i) => (w[i] === 0 ? 0 : 0x2e66)).buffer);
      expect(feed(dtype, raw, [13, 1000], 10, 500)).toMatchObject({ units: 10, deadUnits: 6 });
    }
  });

  it("counts dead units of long rows measured slice by slice, across piece boundaries", () => {
    const rows = 8;
    const width = 4096;
    const w = new Float32Array(rows * width).map((_, i) => (Math.floor(i / width) % 3 === 0 ? 0 : ((i % 11) - 5) * 0.01));
    const s = feed("F32", new Uint8Array(w.buffer), [5, 40_000, 3], rows, rows * width);
    expect(s).toMatchObject({ units: 8, deadUnits: 3, zeroCount: w.filter((x) => x === 0).length });
  });

  it("agrees between bf16 and the float32 values it truncates", () => {
    const bf = new Uint16Array(f32.length);
    const bits = new Uint32Array(f32.buffer);
    for (let i = 0; i < bits.length; i++) bf[i] = bits[i]! >>> 16;
    const s = feed("BF16", new Uint8Array(bf.buffer), [99]);
    const ref = feed("F32", bytes, []);
    expect(Math.abs(s.std! - ref.std!) / ref.std!).toBeLessThan(0.01);
  });
});
