import { describe, expect, it } from "vitest";
import { BOUND_LEVELS, boundValue, fitJson } from "../../../llm/bound.js";

const loose = BOUND_LEVELS[0]!;

/** A decaying curve with a deterministic ripple, like a loss history. */
function curve(n: number, phase = 0): number[] {
  return Array.from({ length: n }, (_, i) => 2 * Math.exp(-i / (n / 5)) + 0.05 * Math.sin(i * 0.37 + phase));
}

describe("boundValue", () => {
  it("summarizes a long numeric array as statistics with representative points, first and last included", () => {
    const values = [5, ...Array.from({ length: 98 }, (_, i) => i / 100), -3];
    const out = boundValue(values, loose) as Record<string, unknown>;
    expect(out).toMatchObject({ summarized_array: 100, min: -3, max: 5, non_finite: 0 });
    const points = out.points as [number, number][];
    expect(points).toHaveLength(loose.points);
    expect(points[0]).toEqual([0, 5]);
    expect(points.at(-1)).toEqual([99, -3]);
  });

  it("counts non-finite values apart and keeps them readable", () => {
    const values = Array.from({ length: 50 }, (_, i) => (i === 10 ? Number.NaN : i === 20 ? Infinity : 1));
    expect(boundValue(values, loose)).toMatchObject({ non_finite: 2, min: 1, max: 1, mean: 1 });
    expect(boundValue({ grad_norm: Number.NaN }, loose)).toEqual({ grad_norm: "NaN" });
  });

  it("keeps head and tail of a long non-numeric array and says how many were left out", () => {
    const rows = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const out = boundValue(rows, { ...loose, maxItems: 4 }) as string[];
    expect(out).toEqual(["line 0", "line 1", "… 96 more items …", "line 98", "line 99"]);
  });

  it("cuts long strings, extra keys and deep values, and rounds long floats", () => {
    const value = { text: "x".repeat(1000), a: { b: { c: { d: 1 } } }, pi: Math.PI, ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i])) };
    const out = boundValue(value, { maxItems: 5, maxKeys: 4, maxString: 10, maxDepth: 2, points: 2 }) as Record<string, unknown>;
    expect(out.text).toBe("xxxxxxxxxx… (+990 chars)");
    expect(out.a).toEqual({ b: "{1 keys}" });
    expect(out.pi).toBe(3.14159);
    expect(out["…"]).toBe("9 more keys");
  });

  it("turns Maps, Sets and typed arrays into JSON values", () => {
    const out = boundValue({ m: new Map([["train", 3]]), s: new Set(["a"]), t: new Float32Array([0.5, 1.5]) }, loose);
    expect(out).toEqual({ m: { train: 3 }, s: ["a"], t: [0.5, 1.5] });
  });
});

describe("fitJson", () => {
  it("keeps a small value whole", () => {
    const { text, value } = fitJson({ a: [1, 2, 3] }, 1000);
    expect(JSON.parse(text)).toEqual({ a: [1, 2, 3] });
    expect(value).toStrictEqual(JSON.parse(text));
  });

  it("fits a 10^6-point history into the budget as parseable JSON with its statistics", () => {
    const history = { train_loss: curve(1_000_000), val_loss: curve(1_000_000, 1), steps: Array.from({ length: 1_000_000 }, (_, i) => i) };
    const { text, value } = fitJson(history, 4000);
    expect(value).toStrictEqual(JSON.parse(text));
    expect(text.length).toBeLessThanOrEqual(4000);
    const parsed = JSON.parse(text) as Record<string, { summarized_array: number; points: unknown[] }>;
    expect(parsed.train_loss!.summarized_array).toBe(1_000_000);
    expect(parsed.train_loss!.points.length).toBeGreaterThan(2);
  });

  it("falls back to a cut JSON string when even the tightest level is too big", () => {
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`a_rather_long_key_name_${i}`, "v".repeat(50)]));
    const { text, value } = fitJson(wide, 120);
    expect(value).toStrictEqual(JSON.parse(text));
    expect(text.length).toBeLessThanOrEqual(120);
    expect(JSON.parse(text)).toMatch(/cut to the prompt budget/);
  });
});
