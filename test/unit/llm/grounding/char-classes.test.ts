import { describe, expect, it } from "vitest";
import { classOf, codePointAt, isSpace, LATIN, LETTER, LOWER, NUMERIC, UPPER } from "../../../../llm/grounding/char-classes.js";

describe("classOf", () => {
  it("gives the classes of the Unicode patterns, for ASCII, accented, Greek, CJK, astral and titlecase letters", () => {
    expect(classOf("a".charCodeAt(0))).toBe(LETTER | LOWER | LATIN);
    expect(classOf("É".charCodeAt(0))).toBe(LETTER | UPPER | LATIN);
    expect(classOf("σ".charCodeAt(0))).toBe(LETTER | LOWER);
    expect(classOf("日".charCodeAt(0))).toBe(LETTER);
    expect(classOf("ǅ".charCodeAt(0))).toBe(LETTER | LATIN);
    expect(classOf("Ⅳ".charCodeAt(0))).toBe(NUMERIC | LATIN);
    expect(classOf("7".charCodeAt(0))).toBe(NUMERIC);
    expect(classOf(codePointAt("𝐀", 0))).toBe(LETTER | UPPER);
    expect(classOf(0xd835)).toBe(0);
  });

  it("agrees with the patterns on every code point of the first planes it is asked", () => {
    for (let c = 0; c < 0x3100; c++) {
      const char = String.fromCodePoint(c);
      const bits = classOf(c);
      expect((bits & LETTER) !== 0, char).toBe(/\p{L}/u.test(char));
      expect((bits & LOWER) !== 0, char).toBe(/\p{Ll}/u.test(char));
      expect((bits & UPPER) !== 0, char).toBe(/\p{Lu}/u.test(char));
      expect((bits & LATIN) !== 0, char).toBe(/\p{Script=Latin}/u.test(char));
      expect((bits & NUMERIC) !== 0, char).toBe(/\p{N}/u.test(char));
      expect(isSpace(c), char).toBe(/\s/u.test(char));
    }
  });

  it("reads a surrogate pair whole and a lone surrogate alone", () => {
    expect(codePointAt("x𝑥", 1)).toBe(0x1d465);
    expect(codePointAt("\ud835", 0)).toBe(0xd835);
    expect(codePointAt("\ud835a", 0)).toBe(0xd835);
  });
});
