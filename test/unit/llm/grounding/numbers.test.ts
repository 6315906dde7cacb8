import { describe, expect, it } from "vitest";
import { evidenceValues, NumberSpans, statedNumbers } from "../../../../llm/grounding/numbers.js";

const values = (text: string) => statedNumbers(text).map((n) => n.readings.map((parts) => parts.map((p) => Number(p.value.toPrecision(8)))));

describe("statedNumbers", () => {
  it("reads English, French and Spanish decimal and thousands marks, each in every sense it can have", () => {
    expect(values("loss 1,234.5 and 0.82")).toEqual([[[1234.5]], [[0.82]]]);
    expect(values("perte 1 234,5 et 0,82")).toEqual([[[1234.5]], [[0.82]]]);
    expect(values("pérdida 1.234,5 y 0,82")).toEqual([[[1234.5]], [[0.82]]]);
    // 1,234 is 1234 in English and 1.234 in French; 1.234 is 1.234 in English and 1234 in Spanish.
    expect(values("1,234")).toEqual([[[1234], [1.234]]]);
    expect(values("1.234")).toEqual([[[1234], [1.234]]]);
    expect(values("1\u202f234\u00a0567")).toEqual([[[1234567], [1, 234, 567]]]);
  });

  it("reads percentages, scientific notation and multipliers", () => {
    expect(values("rose by 12.5 %")).toEqual([[[12.5], [0.125]]]);
    expect(values("lr 3e-4, 2,5 × 10⁻³ and 1.5x10^2")).toEqual([[[0.0003]], [[0.0025]], [[150]]]);
    expect(values("1.2k steps")).toEqual([[[1.2], [1200]]]);
  });

  it("skips identifiers, versions and list markers", () => {
    expect(statedNumbers("fp16 top-1 ResNet-50 val_loss2 v1.2 1.2.3 run_3 5-fold 16-bit")).toEqual([]);
    expect(values("1. first point\n2) second point")).toEqual([]);
    expect(values("epochs 5-10 of 12/50")).toEqual([[[5]], [[10]], [[12]], [[50]]]);
  });

  it("takes the tolerance from the digits written", () => {
    const [n] = statedNumbers("0.82");
    expect(n!.readings[0]![0]!.tolerance).toBeCloseTo(0.005);
  });
});

describe("NumberSpans", () => {
  const index = new NumberSpans([0.823457, 1234, 6, -0.0003, ...evidenceValues("val loss 0.41 rose 37.5%, 1,950 rows")]);

  it("grounds a number written at any rounding of a value shown, in any format", () => {
    for (const text of ["1 950", "1.950", "1,95k", "0.82", "0,823", "82.3 %", "82,35 %", "1,234", "1 234", "1.234", "1.2k", "6", "3e-4", "0,41", "37.5 %", "0.375"]) {
      expect(statedNumbers(text).every((n) => index.grounds(n)), text).toBe(true);
    }
  });

  it("does not ground a number the evidence does not hold", () => {
    for (const text of ["0.83", "987.65 %", "6173", "1,235", "7", "4e-4", "0,42"]) {
      expect(statedNumbers(text).every((n) => index.grounds(n)), text).toBe(false);
    }
  });

  it("does not let a coarse rounding stand for a value 10 % or more away from it", () => {
    const grounds = (values: number[], text: string) => statedNumbers(text).every((n) => new NumberSpans(values).grounds(n));
    // "1" is 0.81 at no decimals, and "0" is 0.3, but both say something else.
    expect(grounds([0.81], "1")).toBe(false);
    expect(grounds([0.3], "0")).toBe(false);
    expect(grounds([0.53], "0.5")).toBe(true);
    expect(grounds([0.97], "1.0")).toBe(true);
    expect(grounds([0.94], "0.9")).toBe(true);
    // A rounding keeps a digit of the value: "1" states none of 0.97's, nor "1e-3" of 0.00097.
    expect(grounds([0.97], "1")).toBe(false);
    expect(grounds([0.00097], "1e-3")).toBe(false);
    expect(grounds([0.0011], "1e-3")).toBe(true);
    expect(grounds([0], "0")).toBe(true);
    expect(grounds([1.78e-21], "0")).toBe(true);
  });
});

describe("statedNumbers reads a digit group", () => {
  it("reads a decimal of any length to the value Number() gives it with a point, the last digit included", () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 20_000; k++) {
      const digits = Array.from({ length: 2 + Math.floor(random() * 19) }, () => Math.floor(random() * 10)).join("");
      // A mark before other than three digits, or none: one decimal reading (more digits than a double holds included).
      const at = 1 + Math.floor(random() * (digits.length - 1));
      const decimals = digits.length - at;
      const mark = random() < 0.5 ? "." : ",";
      const group = decimals === 3 || random() < 0.2 ? digits : `${digits.slice(0, at)}${mark}${digits.slice(at)}`;
      const expected = group === digits ? Number(digits) : Number(`${digits.slice(0, at)}.${digits.slice(at)}`);
      expect(statedNumbers(group)[0]!.readings[0]![0]!.value, group).toBe(expected);
    }
  });
});
