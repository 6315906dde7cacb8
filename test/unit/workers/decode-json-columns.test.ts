import { describe, expect, it } from "vitest";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { seededRandom } from "../../../bench/data/training-history.js";
import { decodeJsonColumns, decodeJsonPart, joinBodyParts, readJsonColumns } from "../../../workers/decode-json-columns.js";
import { MIN_COLUMN_LENGTH, packNumberColumns, type PackedValue } from "../../../workers/number-columns.js";
import { RefusedJson } from "../../../workers/refused-json.js";

/**
 * The large-body decoder against the reference it replaces, packNumberColumns(parseTolerantJson(text)): the same
 * tree, the same columns at the same paths, every number the same double (-0 and NaN included), and refusal
 * exactly where the reference throws, with the reference's own message.
 */

const asUtf8 = (text: string) => Buffer.from(text).toString("utf8");
const reference = (text: string) => packNumberColumns(parseTolerantJson(text));

/**
 * Columns as plain data, for toEqual (which tells -0 from 0 and reads NaN as NaN), in path order: the reference
 * lists them in its walk's key order (integer-like keys first), the decoder in the text's; each lands at its path.
 */
const plain = (packed: PackedValue) => ({
  value: packed.value,
  columns: packed.columns
    .map((c) => ({ path: c.path, values: Array.from(c.values), nulls: c.nulls && Array.from(c.nulls) }))
    .sort((a, b) => (JSON.stringify(a.path) < JSON.stringify(b.path) ? -1 : 1)),
});

function expectSameAsReference(text: string): void {
  const ours = readJsonColumns(Buffer.from(text));
  expect(plain(ours)).toEqual(plain(reference(text)));
  // Keys in the order JSON.parse sets them, "__proto__" as an own data property.
  expect(JSON.stringify(ours.value)).toBe(JSON.stringify(reference(text).value));
}

/** What the reference parser throws for `text`, or null when it parses. */
function referenceError(text: string): string | null {
  try {
    parseTolerantJson(text);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

function expectRefusedAsReference(text: string): void {
  const error = referenceError(text);
  expect(error).not.toBeNull();
  expect(() => readJsonColumns(Buffer.from(text))).toThrow(RefusedJson);
  expect(() => decodeJsonColumns(Buffer.from(text))).toThrow(error!);
}

/** Random JSON text: nested values, odd strings and keys, random whitespace, long number arrays with nulls. */
function randomJson(random: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const space = () => (random() < 0.7 ? "" : pick([" ", "\n", "\t", "\r\n  ", "   "]));
  const strings = ["", "a", "loss", "é", "日本語", "🙂", 'q"uote', "back\\slash", "tab\there", "line\nbreak", "\u0000nul", "\ud800", "NaN", "Infinity", "-1e5", "__proto__", "constructor"];
  const keyOf = () => (random() < 0.1 ? pick(["__proto__", "0", "10", "a", "a"]) : pick(strings) + Math.floor(random() * 5));
  const str = (s: string) => (random() < 0.5 ? JSON.stringify(s) : JSON.stringify(s).replace(/[^\x20-\x7e]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
  const number = (): string => {
    const r = random();
    if (r < 0.05) return pick(["NaN", "Infinity", "-Infinity"]);
    if (r < 0.1) return pick(["0", "-0", "0.0", "-0.0e0", "1E+2", "1e-2", "5e-324", "1.7976931348623157e308", "1e309", "-1e400", "9007199254740993", "0.1", "123456789012345678901234567890"]);
    if (r < 0.4) return String(Math.round((random() - 0.5) * 2e7) / 1e6);
    if (r < 0.6) return String(Math.floor(random() * 1e9) * (random() < 0.5 ? -1 : 1));
    if (r < 0.8) return String((random() - 0.5) * 10 ** Math.floor(random() * 40 - 20));
    return randomDigits(random);
  };
  const numberArray = (n: number) =>
    `[${space()}${Array.from({ length: n }, () => (random() < 0.03 ? "null" : number())).join(`${space()},${space()}`)}${space()}]`;
  const value = (depth: number): string => {
    const r = random();
    if (depth > 5 || r < 0.35) return random() < 0.5 ? number() : random() < 0.5 ? str(pick(strings)) : pick(["true", "false", "null"]);
    if (r < 0.45) return numberArray(random() < 0.5 ? MIN_COLUMN_LENGTH + Math.floor(random() * 50) : Math.floor(random() * 40));
    if (r < 0.55) {
      // A long run of numbers broken by one other value: not a column, whatever its length.
      const items = Array.from({ length: MIN_COLUMN_LENGTH + 10 }, () => number());
      items[Math.floor(random() * items.length)] = value(depth + 1);
      return `[${items.join(",")}]`;
    }
    if (r < 0.75) return `[${space()}${Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1)).join(`${space()},${space()}`)}${space()}]`;
    const entries = Array.from({ length: Math.floor(random() * 6) }, () => `${space()}${str(keyOf())}${space()}:${space()}${value(depth + 1)}`);
    return `{${entries.join(",")}${space()}}`;
  };
  return `${space()}${value(0)}${space()}`;
}

/** A JSON number with 1–25 random digits, an optional fraction and exponent: the fast path's edges and past them. */
function randomDigits(random: () => number): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join("");
  const whole = random() < 0.3 ? "0" : `${1 + Math.floor(random() * 9)}${digits(Math.floor(random() * 20))}`;
  const fraction = random() < 0.6 ? `.${digits(1 + Math.floor(random() * 20))}` : "";
  const exponent = random() < 0.4 ? `${random() < 0.5 ? "e" : "E"}${["", "+", "-"][Math.floor(random() * 3)]}${Math.floor(random() * 30)}` : "";
  return `${random() < 0.3 ? "-" : ""}${whole}${fraction}${exponent}`;
}

describe("decodeJsonColumns", () => {
  it("reads 300 random JSON texts exactly as JSON.parse (tolerant) and packNumberColumns do", () => {
    const random = seededRandom(18);
    for (let i = 0; i < 300; i++) expectSameAsReference(randomJson(random));
  });

  it("reads every double back exactly: random bit patterns, their shortest and longest texts, and 20,000 random digit strings", () => {
    const random = seededRandom(7);
    const bits = new DataView(new ArrayBuffer(8));
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      bits.setUint32(0, Math.floor(random() * 2 ** 32));
      bits.setUint32(4, Math.floor(random() * 2 ** 32));
      const x = bits.getFloat64(0);
      if (!Number.isFinite(x)) continue;
      texts.push(String(x), x.toPrecision(17), x.toExponential(20), randomDigits(random));
    }
    // Clinger's fast path at its edges: 15 and 16 significant digits, 10^±22 and 10^±23, integers past 2^53.
    texts.push("999999999999999", "9999999999999999", "1e22", "1e23", "123456789012345e22", "123456789012345e-22", "1e-22", "1e-23");
    texts.push("9007199254740992", "9007199254740993", "18014398509481985", "2.2250738585072011e-308", "4.9e-324", "2.4703282292062328e-324");
    const packed = readJsonColumns(Buffer.from(`[${texts.join(",")}]`));
    expect(packed.columns).toHaveLength(1);
    const values = packed.columns[0]!.values;
    texts.forEach((t, i) => expect(Object.is(values[i], JSON.parse(t)), t).toBe(true));
  });

  it("puts columns where the reference does: at the root, in arrays of arrays, under \"__proto__\", with nulls", () => {
    const long = (f: (i: number) => string) => `[${Array.from({ length: MIN_COLUMN_LENGTH }, (_, i) => f(i)).join(",")}]`;
    expectSameAsReference(long((i) => String(i / 7)));
    expectSameAsReference(`[${long((i) => (i % 3 ? "null" : "-0"))}, [1, ${long(() => "NaN")}], "x"]`);
    expectSameAsReference(`{"__proto__": {"m": ${long((i) => String(-i))}}, "a": {"a": 1, "a": ${long(() => "1e5")}}, "b": {"b": ${long(() => "1")}, "b": 2, "c": ${long(() => "3")}}}`);
    // One short of a column, and a long array whose last element is not a number.
    expectSameAsReference(`{"short": [${Array.from({ length: MIN_COLUMN_LENGTH - 1 }, () => "1").join(",")}], "mixed": ${long(() => "2").replace(/\]$/, ',"end"]')}}`);
    const { columns } = readJsonColumns(Buffer.from(`{"a": [[0], ${long((i) => (i === 5 ? "null" : "0.5"))}]}`));
    expect(columns.map((c) => [c.path, c.nulls?.[5], c.values[5]])).toEqual([[["a", 1], 1, 0]]);
  });

  it("refuses exactly what the reference throws on, with its message: 1,000 random one-byte edits of valid texts", { timeout: 60_000 }, () => {
    const random = seededRandom(22);
    const bytes = '[]{},:"\\ \n0123456789eE.+-ntfulaNIy\u00e9\u0001';
    let refused = 0;
    for (let i = 0; i < 1000; i++) {
      const valid = randomJson(random);
      const at = Math.floor(random() * (valid.length + 1));
      const kind = random();
      // As the service sees it: bytes (a cut surrogate pair becomes U+FFFD on the way).
      const edited = asUtf8(
        kind < 0.33
          ? valid.slice(0, at) + valid.slice(at + 1)
          : kind < 0.66
            ? valid.slice(0, at) + bytes[Math.floor(random() * bytes.length)] + valid.slice(at)
            : valid.slice(0, at),
      );
      if (edited.trim() === "") continue;
      if (referenceError(edited) === null) expectSameAsReference(edited);
      else {
        expectRefusedAsReference(edited);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it("refuses adversarial texts as the reference does", () => {
    const cases = [
      "01", "-", "1.", ".5", "1e", "1e+", "+1", "--1", "0x10", "1_000", "NaNa", "-NaN", "infinity", "nul", "tru", "[1,]", "[,1]", "[1 2]",
      '{"a":1,}', '{"a" 1}', "{a:1}", '{"a":1', "[", '"open', '"\\x"', '"\\u12"', '"tab\there"', "\ufeff{}", "[1]x", "{}{}", "[1e5000000000000000]x",
      `[${"1,".repeat(MIN_COLUMN_LENGTH * 2)}]`, `[${"2,".repeat(MIN_COLUMN_LENGTH * 2)}2 3]`,
    ];
    for (const text of cases) expectRefusedAsReference(text);
  });

  it("hands nesting deeper than its stack to the reference parser", () => {
    const depth = 200_000;
    const text = `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    expect(() => readJsonColumns(Buffer.from(text))).toThrow(RangeError);
    const outcome = (read: () => unknown) => {
      try {
        read();
        return "read";
      } catch (err) {
        return (err as Error).name;
      }
    };
    expect(outcome(() => decodeJsonColumns(Buffer.from(text)))).toBe(outcome(() => reference(text)));
  });

  it("reads strings as the whole text's UTF-8 decoding does, invalid sequences included", () => {
    const texts = [Buffer.from('{"é🙂": "日本\\u00e9\\ud83d\\ude42", "lone": "\\ud800"}'), Buffer.from([0x5b, 0x22, 0xe9, 0x22, 0x2c, 0x22, 0xf0, 0x9f, 0x22, 0x2c, 0x22, 0xc3, 0x28, 0x22, 0x5d])];
    for (const bytes of texts) expect(readJsonColumns(bytes).value).toEqual(JSON.parse(bytes.toString("utf8")));
  });

  it("writes columns to shared memory: the event loop and the analysing worker read them in place, nothing to transfer", () => {
    const text = `{"a": [${"null,".repeat(MIN_COLUMN_LENGTH)}1], "b": [${"1,".repeat(MIN_COLUMN_LENGTH)}1]}`;
    const ours = decodeJsonColumns(Buffer.from(text));
    expect(ours.columns.flatMap((c) => [c.values.buffer, c.nulls?.buffer ?? new SharedArrayBuffer(0)]).every((b) => b instanceof SharedArrayBuffer)).toBe(true);
    expect(ours.transfer).toEqual([]);
  });

  it("decodes a body in 1, 2 or 3 parts to what one decoder reads, and refuses in some part what it refuses", () => {
    const random = seededRandom(3);
    const inParts = (bytes: Buffer, parts: number) => {
      const read = Array.from({ length: parts }, (_, part) => decodeJsonPart(bytes, part, parts));
      return read.every((p) => p !== null) ? plain(joinBodyParts(read as NonNullable<(typeof read)[number]>[])) : null;
    };
    const long = (n: number, f: (i: number) => string) => `[${Array.from({ length: n }, (_, i) => f(i)).join(", ")}]`;
    const texts = [
      long(MIN_COLUMN_LENGTH, (i) => String(i / 3)),
      long(700, (i) => String(i / 3)), // long in bytes, short in elements: an array, not a column
      `{"a": ${long(3000, () => "1")}, "a": 2, "b": {"c": ${long(3000, () => "1")}, "c": ${long(2500, () => "2")}}}`,
      `{"m": {"a": ${long(3000, (i) => String(-i))}, "b": ${long(2000, (i) => (i % 2 ? "true" : "1.5"))}, "c": [${long(1500, () => "null")}, 2]}}`,
      ...Array.from({ length: 100 }, () => randomJson(random)),
    ];
    for (const text of texts) {
      const bytes = Buffer.from(text);
      const whole = plain(readJsonColumns(bytes));
      for (const parts of [1, 2, 3]) expect(inParts(bytes, parts)).toEqual(whole);
    }
    const refused = [
      `{"a": ${long(3000, () => "1")}, "b": ${long(3000, () => "1").replace("1, 1", "1,, 1")}}`,
      `{"a": ${long(3000, () => "1").replace("1, 1", "1, -")}, "a": 2}`, // checked though a repeated key replaces it
      `{"a": ${long(3000, () => "1")}} x`,
    ];
    for (const text of refused) for (const parts of [1, 2]) expect(inParts(Buffer.from(text), parts)).toBeNull();
  });
});

