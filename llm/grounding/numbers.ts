/**
 * Numbers as people write them, in English, French, Spanish or German conventions: decimal points or commas,
 * thousands grouped by commas, points, spaces or apostrophes, percentages, scientific notation and k/M/G
 * multipliers. A written number can mean several values ("1,234" is 1234 in English and 1.234 in French), so
 * each is read as every value it can mean, each with the tolerance its written precision implies.
 */

/** One value a written number can mean, and how far the true value may be from it given the digits written. */
export interface Reading {
  value: number;
  tolerance: number;
}

/**
 * A number found in text: where it is and every reading of it, each a list of values that must all hold (one
 * value, or the parts of a list such as "1,2,3").
 */
export interface StatedNumber {
  text: string;
  index: number;
  readings: Reading[][];
}

// Not after a letter, digit, underscore or point (identifiers such as fp16, top-1, v1.2, run_3), nor after
// "<letter>-" (ResNet-50). Digits are grouped by [.,] or by a space-like/apostrophe before exactly 3 digits.
const NUMBER =
  /(?<![\p{L}\p{N}_.])(?<![\p{L}_]-)(\d+(?:[.,]\d+|[ \u00a0\u202f'’]\d{3}(?!\d))*)(?:\s?[×x*·]\s?10(?:\^([-−+]?\d+)|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)))?(?:[eE]([-−+]?\d+))?/gu;

const SUPERSCRIPT: Record<string, string> = { "⁻": "-", "⁺": "+", "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9" };

/** Multipliers a number may carry after it: attached k/M/G/B, binary and decimal byte units, words. */
const SUFFIXES: Array<[RegExp, number]> = [
  [/^\s?%/u, 0.01], [/^[kK](?!\p{L})/u, 1e3], [/^M(?!\p{L})/u, 1e6], [/^[GB](?!\p{L})/u, 1e9],
  [/^\s?KiB/u, 2 ** 10], [/^\s?MiB/u, 2 ** 20], [/^\s?GiB/u, 2 ** 30], [/^\s?[kK]B/u, 1e3], [/^\s?MB/u, 1e6], [/^\s?GB/u, 1e9],
  [/^\s(?:thousand|mille|mil|tausend)\b/iu, 1e3],
  [/^\s(?:million|millions|millones|millón|millionen|mio)\b/iu, 1e6],
  [/^\s(?:billion|billions|milliards?|milliarden|mil millones)\b/iu, 1e9],
];

/** "1." or "2)" at the start of a line is an enumeration, not a claim. */
const ENUMERATION_MARK = /^[.)]\s/u;
const BLANK = /^[ \t]*$/u;
/** What joins a number to a name after it: a point and a letter (3.x), letters then a digit, a hyphen and a letter (5-fold). */
const NAME_PART_AFTER = /^(?:\.\p{L}|[_\p{L}]*\d|-\p{L})/u;
/** How far after a number its suffix, enumeration mark or name part is looked for. */
const AFTER_CHARS = 24;

/** One value a digit group can mean, and how many decimals it was written with. */
type Mantissa = { value: number; decimals: number };

/** Whether digit groups are thousands: a first group of at most three digits, then groups of three. */
const thousandsOk = (gs: string[]) => gs[0]!.length <= 3 && gs.slice(1).every((g) => g.length === 3);

/** The values a digit group (NUMBER's first group) can mean: point or comma as the decimal mark, the other marks as thousands. */
function mantissas(raw: string): Mantissa[][] {
  const groups = raw.split(/[^\d]/u);
  const seps: string[] = raw.match(/[^\d]/gu) ?? [];
  if (seps.length === 0) return [[{ value: Number(raw), decimals: 0 }]];
  // Several points and nothing else is a version or a dotted identifier, not a quantity.
  if (seps.length > 1 && seps.every((s) => s === ".") && groups.slice(1).some((g) => g.length !== 3)) return [];
  const out: Mantissa[][] = [];
  // Every mark is a thousands separator.
  if (thousandsOk(groups) && !(seps.includes(".") && seps.includes(","))) out.push([{ value: Number(groups.join("")), decimals: 0 }]);
  // The last mark is the decimal mark ("." or ","), the others are thousands separators of another kind.
  const last = seps.at(-1)!;
  const head = groups.slice(0, -1);
  if ((last === "." || last === ",") && !seps.slice(0, -1).includes(last) && (head.length === 1 || thousandsOk(head))) {
    const frac = groups.at(-1)!;
    out.push([{ value: Number(`${head.join("")}.${frac}`), decimals: frac.length }]);
  }
  // "1,2,3" or "5 100" may be separate numbers (a list, or a count before a number).
  const spaced = seps.every((s) => s !== "." && s !== ",");
  if (spaced || (seps.length > 1 && seps.every((s) => s === ","))) out.push(groups.map((g) => ({ value: Number(g), decimals: 0 })));
  return out;
}

function exponentOf(caret: string | undefined, superscript: string | undefined, e: string | undefined): number {
  const text = caret ?? (superscript ? [...superscript].map((c) => SUPERSCRIPT[c]).join("") : e);
  return text === undefined ? 0 : Number(text.replace("−", "-"));
}

/** Every number stated in `text`, with its readings; list markers, identifiers and versions are left out. */
export function statedNumbers(text: string): StatedNumber[] {
  const out: StatedNumber[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const index = m.index;
    const after = text.slice(index + m[0].length, index + m[0].length + AFTER_CHARS);
    if (ENUMERATION_MARK.test(after) && BLANK.test(text.slice(text.lastIndexOf("\n", index - 1) + 1, index))) continue;
    // Glued to letters or digits by a point ("3.x", "1.2.3") or to a word by a hyphen ("16-bit"): part of a name.
    if (NAME_PART_AFTER.test(after)) continue;
    const scale = 10 ** exponentOf(m[2], m[3], m[4]);
    const multipliers = [1, ...SUFFIXES.filter(([re]) => re.test(after)).map(([, m]) => m)];
    const readings = mantissas(m[1]!).flatMap((parts) =>
      multipliers.map((mult) => parts.map((p) => ({ value: p.value * scale * mult, tolerance: 0.5 * 10 ** -p.decimals * scale * mult }))),
    );
    if (readings.length) out.push({ text: m[0], index, readings });
  }
  return out;
}

const EVIDENCE_NUMBER = /(\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?)(\s?%)?/gu;

/**
 * The values a text of the evidence holds: the evidence was written by our detectors and the tools that made the
 * artifacts, in English marks, so each number is read with point decimals and comma thousands, plus the
 * comma-decimal reading of a lone comma, and a percentage also as a fraction. More values than meant only make
 * the check a little more lenient.
 */
export function evidenceValues(text: string): number[] {
  return [...text.matchAll(EVIDENCE_NUMBER)].flatMap(([, raw, percent]) => {
    const english = Number(raw!.replaceAll(",", ""));
    const values = [english];
    if (/^\d+,\d+$/u.test(raw!)) values.push(Number(raw!.replace(",", ".")));
    if (percent) values.push(english / 100);
    return values;
  });
}

/**
 * How far, relative to the value meant, a rounded statement may land. Rounding to the digits written is not
 * enough on its own: "1" is 0.81 rounded to no decimals, yet says something else (and "0" would stand for any
 * value under 0.5); within 10 %, "0.5" stands for 0.53, "1" for 0.97, "82 %" for 0.8153, never "1" for 0.81.
 */
export const RELATIVE_ROUNDING = 0.1;

/** Values a stated number may be checked against. */
export interface NumberSet {
  grounds(n: StatedNumber): boolean;
}

/**
 * The values of a list of numbers at some of its spans (all of it, the ranges of a field, the values inside the
 * items a sentence names): `spans` holds [start, end) pairs into `values`, the whole list when omitted.
 */
export class NumberSpans implements NumberSet {
  constructor(
    private readonly values: readonly number[],
    private readonly spans: readonly number[] = [0, values.length],
  ) {}

  /**
   * Whether some value x is one a statement of |value| within `tolerance` may stand for: x in [v - tolerance,
   * v + tolerance] and |value| within RELATIVE_ROUNDING of x, plus float noise. A rounding keeps at least one
   * digit of the value: x is no smaller than the unit of the last digit written (2 tolerance), so "1" cannot
   * stand for 0.94 while "0.9" and "1.0" can. A stated 0 stands for 0 only (the relative bound).
   */
  has(value: number, tolerance: number): boolean {
    const v = Math.abs(value);
    const noise = 1e-9 * Math.max(1, v);
    const low = Math.max(v - tolerance, v / (1 + RELATIVE_ROUNDING), v > 0 ? 2 * tolerance : 0) - noise;
    const high = Math.min(v + tolerance, v / (1 - RELATIVE_ROUNDING)) + noise;
    for (let s = 0; s < this.spans.length; s += 2) {
      for (let i = this.spans[s]!; i < this.spans[s + 1]!; i++) {
        const x = Math.abs(this.values[i]!);
        if (x >= low && x <= high) return true;
      }
    }
    return false;
  }

  /** Whether a stated number is grounded: some reading (all parts of a list reading) is among the values. */
  grounds(n: StatedNumber): boolean {
    return n.readings.some((parts) => parts.every((r) => this.has(r.value, r.tolerance)));
  }
}
