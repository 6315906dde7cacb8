import { describe, expect, it } from "vitest";
import { digitGroupEnd, mayGoOn, mayStartNumber, namePartAfter } from "../../../../llm/grounding/number-scan.js";

describe("number-scan", () => {
  it("starts a number where NUMBER's look-behinds allow", () => {
    expect(mayStartNumber("loss 3", 5)).toBe(true);
    expect(mayStartNumber("3", 0)).toBe(true);
    for (const [text, at] of [["fp16", 2], ["v1.2", 3], ["run_3", 4], ["ResNet-50", 7], ["Ⅳ3", 1], ["𝑥3", 2]] as const) expect(mayStartNumber(text, at), text).toBe(false);
    expect(mayStartNumber("top -1", 5)).toBe(true);
  });

  it("ends the digit group after decimals and groups of exactly three digits", () => {
    expect(digitGroupEnd("1 234,5 x", 0)).toBe(7);
    expect(digitGroupEnd("1 2345", 0)).toBe(1);
    expect(digitGroupEnd("12’345.6.", 0)).toBe(8);
  });

  it("tells where an exponent may follow and where the number is part of a name", () => {
    expect(mayGoOn("3e-4", 1)).toBe(true);
    expect(mayGoOn("2 × 10³", 1)).toBe(true);
    expect(mayGoOn("2 and", 1)).toBe(false);
    expect(namePartAfter("3.x", 1)).toBe(true);
    expect(namePartAfter("5-fold", 1)).toBe(true);
    expect(namePartAfter("16bit2", 2)).toBe(true);
    expect(namePartAfter("16 bits", 2)).toBe(false);
  });
});
