import { isSpace } from "./char-classes.js";
import { mantissas } from "./digit-groups.js";
import { AFTER_CHARS, digitGroupEnd, digitsEnd, mayGoOn, mayStartNumber, namePartAfter } from "./number-scan.js";

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
// Sticky: statedNumbers runs it only where a run of digits starts and an exponent may follow.
export const NUMBER =
  /(?<![\p{L}\p{N}_.])(?<![\p{L}_]-)(\d+(?:[.,]\d+|[ \u00a0\u202f'’]\d{3}(?!\d))*)(?:\s?[×x*·]\s?10(?:\^([-−+]?\d+)|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)))?(?:[eE]([-−+]?\d+))?/uy;

const SUPERSCRIPT: Record<string, string> = { "⁻": "-", "⁺": "+", "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9" };

/** Multipliers a number may carry after it: attached k/M/G/B, binary and decimal byte units, words. */
const SUFFIXES: Array<[RegExp, number[]]> = [
  [/^\s?%/u, [0.01]],
  [/^[kK](?!\p{L})/u, [1e3]],
  [/^M(?!\p{L})/u, [1e6]],
  [/^[GB](?!\p{L})/u, [1e9]],
  [/^\s?KiB/u, [2 ** 10]],
  [/^\s?MiB/u, [2 ** 20]],
  [/^\s?GiB/u, [2 ** 30]],
  [/^\s?[kK]B/u, [1e3]],
  [/^\s?MB/u, [1e6]],
  [/^\s?GB/u, [1e9]],
  [/^\s(?:thousand|mille|mil|tausend)\b/iu, [1e3]],
  [/^\s(?:million|millions|millones|millón|millionen|mio)\b/iu, [1e6]],
  [/^\s(?:billion|billions|milliards?|milliarden|mil millones)\b/iu, [1e9]],
];

const ONE = [1];

export function exponentOf(caret: string | undefined, superscript: string | undefined, e: string | undefined): number {
  const text = caret ?? (superscript ? [...superscript].map((c) => SUPERSCRIPT[c] ?? "").join("") : e);
  if (text === undefined) return 0;
  return Number(text.replace("−", "-"));
}

// The pattern statedNumbers runs for a number that opens a line, made once.
const BLANK = /^[ \t]*$/u;

/** Characters a multiplier starts with (after at most one space): other words after a number multiply nothing. */
const SUFFIX_CHARS = new Set([..."%kKMGBtTmb"].map((c) => c.charCodeAt(0)));

/** An ASCII digit, searched for from its lastIndex (test, not exec: no match object). */
const NEXT_DIGIT = /\d/g;

/**
 * Every number stated in `text`, with its readings; list markers, identifiers and versions are left out. Read
 * where a run of digits starts, by character code: a plain number (no exponent can follow its digits) as NUMBER
 * would match it, anything else by NUMBER itself (made sticky), at that place only; the pattern's two Unicode
 * look-behinds tried at every character were most of the time of the sentence checks' number reading.
 */
export function statedNumbers(text: string): StatedNumber[] {
  const out: StatedNumber[] = [];
  for (let i = 0; ; ) {
    // The next digit, found by the pattern engine rather than by a loop over every character (most are none).
    NEXT_DIGIT.lastIndex = i;
    if (!NEXT_DIGIT.test(text)) break;
    i = NEXT_DIGIT.lastIndex - 1;
    // A match starts with a digit and not after one (\p{N}): only where a run of digits starts, so a run that
    // cannot start one is passed whole.
    if (!mayStartNumber(text, i)) {
      i = digitsEnd(text, i);
      continue;
    }
    const index = i;
    const groupEnd = digitGroupEnd(text, i);
    let matched: string;
    let exponent = 0;
    if (mayGoOn(text, groupEnd)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) {
        i++;
        continue;
      }
      matched = m[0];
      exponent = exponentOf(m[2], m[3], m[4]);
    } else matched = text.slice(i, groupEnd);
    const end = index + matched.length;
    i = end;
    // "1." or "2)" opening a line is an enumeration, not a claim.
    const next = text.charCodeAt(end);
    if ((next === 46 || next === 41) && end + 1 < text.length && isSpace(text.charCodeAt(end + 1)) && BLANK.test(text.slice(text.lastIndexOf("\n", index - 1) + 1, index))) continue;
    // A number glued to letters or digits after it with a point is part of an identifier ("3.x", "1.2.3"); one
    // joined to a word by a hyphen is part of a compound ("5-fold", "16-bit"), a name rather than a measurement.
    if (namePartAfter(text, end)) continue;
    const readings = readingsOf(matched.length === groupEnd - index ? matched : text.slice(index, groupEnd), exponent, text, end);
    if (readings.length) out.push({ text: matched, index, readings });
  }
  return out;
}

/**
 * The readings of a number whose digit group (NUMBER's first group) is `group`, times 10^`exponent`, ending at
 * `end` of `text`: every value the group can mean, times every multiplier of a suffix written after it.
 */
export function readingsOf(group: string, exponent: number, text: string, end: number): Reading[][] {
  const scale = 10 ** exponent;
  const next = text.charCodeAt(end);
  const suffixAt = isSpace(next) ? end + 1 : end;
  const multipliers = suffixAt < text.length && SUFFIX_CHARS.has(text.charCodeAt(suffixAt)) ? multipliersAfter(text.slice(end, end + AFTER_CHARS)) : ONE;
  const meanings = mantissas(group);
  // Most numbers mean one value and carry no multiplier: read without the loops' closures and lists.
  if (multipliers === ONE && meanings.length === 1 && meanings[0]!.length === 1) {
    const { value, decimals } = meanings[0]![0]!;
    return [[{ value: value * scale, tolerance: 0.5 * 10 ** -decimals * scale }]];
  }
  const readings: Reading[][] = [];
  for (const parts of meanings) {
    for (const mult of multipliers) readings.push(parts.map((p) => ({ value: p.value * scale * mult, tolerance: 0.5 * 10 ** -p.decimals * scale * mult })));
  }
  return readings;
}

/** The multipliers of the suffixes written after a number (1 for none), `after` being what follows it. */
function multipliersAfter(after: string): number[] {
  const out = [1];
  for (const [re, ms] of SUFFIXES) if (re.test(after)) out.push(...ms);
  return out;
}

const EVIDENCE_NUMBER = /(\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?)(\s?%)?/gu;

/**
 * The values a text of the evidence holds, read quickly: the evidence was written by our detectors and the
 * tools that made the artifacts, in English marks, so each number is read with point decimals and comma
 * thousands, plus the comma-decimal reading of a lone comma, and a percentage also as a fraction. More values
 * than meant only make the check a little more lenient. They are added to `out` (the walk's list, not a copy).
 */
export function evidenceValues(text: string, out: number[] = []): number[] {
  for (let m = EVIDENCE_NUMBER.exec(text); m; m = EVIDENCE_NUMBER.exec(text)) {
    const raw = m[1]!;
    const comma = raw.indexOf(",");
    // Most evidence numbers have no comma: read as they are, without a copy.
    const english = comma < 0 ? Number(raw) : Number(raw.replace(/,/gu, ""));
    out.push(english);
    if (comma >= 0 && /^\d+,\d+$/u.test(raw)) out.push(Number(raw.replace(",", ".")));
    if (m[2]) out.push(english / 100);
  }
  return out;
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

/** The texts that hold slots of a list of numbers (NaN there): the values of the text at a slot, read when first asked. */
export interface SlotTexts {
  valuesAt(slot: number): readonly number[] | undefined;
}

/**
 * Values a stated number may be checked against: the values of a list of numbers at some of its spans (all of
 * it, the ranges of a field, the values inside the items a sentence names), scanned, never copied nor sorted.
 * An answer states a few dozen numbers against a prompt's few hundred: sorting an index per prompt (and per
 * field asked) cost more than the scans it spared, and allocated. A slot of the list that stands for a text
 * (`texts`) is read only when no number of the spans matches.
 */
export class NumberSpans implements NumberSet {
  /** `spans` holds [start, end) pairs into `values` (the whole list when omitted). */
  constructor(
    private readonly values: readonly number[],
    private readonly spans: readonly number[] = [0, values.length],
    private readonly texts?: SlotTexts,
  ) {}

  /**
   * Whether some value x is one a statement of |value| within `tolerance` may stand for: x in [v - tolerance,
   * v + tolerance] and |value| within RELATIVE_ROUNDING of x (x in [v / 1.1, v / 0.9]), plus float noise. A
   * rounding keeps at least one digit of the value: x is no smaller than the unit of the last digit written
   * (2 tolerance), so "1" cannot stand for 0.94 (a model shown 0.94 that writes "1" carried the rounding into the
   * next decade and states none of its digits; an index 0 changed to 1 next to a value 0.94 hid this way), while
   * "0.9" and "1.0" can. A stated 0 stands for 0 only (the relative bound).
   */
  has(value: number, tolerance: number): boolean {
    const v = Math.abs(value);
    const noise = 1e-9 * Math.max(1, v);
    const low = Math.max(v - tolerance, v / (1 + RELATIVE_ROUNDING), v > 0 ? 2 * tolerance : 0) - noise;
    const high = Math.min(v + tolerance, v / (1 - RELATIVE_ROUNDING)) + noise;
    const { values, spans } = this;
    let slots = false;
    for (let s = 0; s < spans.length; s += 2) {
      for (let i = spans[s]!, end = spans[s + 1]!; i < end; i++) {
        const x = Math.abs(values[i]!);
        if (x >= low && x <= high) return true;
        if (x !== x) slots = true;
      }
    }
    return slots && this.slotsHold(low, high);
  }

  /** Whether a value of a text at a slot (NaN) of the spans is within [low, high]. */
  private slotsHold(low: number, high: number): boolean {
    const { values, spans, texts } = this;
    if (!texts) return false;
    for (let s = 0; s < spans.length; s += 2) {
      for (let i = spans[s]!, end = spans[s + 1]!; i < end; i++) {
        if (values[i] === values[i]) continue;
        for (const value of texts.valuesAt(i) ?? []) {
          const x = Math.abs(value);
          if (x >= low && x <= high) return true;
        }
      }
    }
    return false;
  }

  /** Whether a stated number is grounded: some reading (all parts of a list reading) is among the values. */
  grounds(n: StatedNumber): boolean {
    return n.readings.some((parts) => parts.every((r) => this.has(r.value, r.tolerance)));
  }
}
