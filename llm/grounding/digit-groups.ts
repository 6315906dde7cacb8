/**
 * The values a digit group (NUMBER's first group: digits, and marks each followed by digits) can mean in English,
 * French, Spanish or German conventions: a point or comma as the decimal mark, the other marks as thousands.
 */

/** One value a digit group can mean, and how many decimals it was written with. */
export interface Parsed {
  value: number;
  decimals: number;
}

/** Whether digit groups are thousands: a first group of at most three digits, then groups of three. */
const thousandsOk = (gs: string[]) => gs[0]!.length <= 3 && gs.slice(1).every((g) => g.length === 3);

/** The powers of ten a decimal value is divided by, written out (each exact). */
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/** Digits an integer of which is exact in a double, with room: 15. */
const EXACT_DIGITS = 15;

/**
 * The value of the digits of `raw`, a mark at `mark` (-1: none) left out, with `decimals` of them after the point
 * (0 where the mark separates thousands), as Number() reads them: the digits as an integer over a power of ten,
 * both exact, so the one rounding is the division's, as correct as Number's own (copying the text with a point
 * cost more than this whole reading); Number() for more digits than an integer holds exactly.
 */
function decimalValue(raw: string, mark: number, decimals: number): number {
  if ((mark < 0 ? raw.length : raw.length - 1) > EXACT_DIGITS) {
    const digits = mark < 0 ? raw : raw.slice(0, mark) + raw.slice(mark + 1);
    return Number(decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits);
  }
  let n = 0;
  for (let i = 0; i < raw.length; i++) if (i !== mark) n = n * 10 + (raw.charCodeAt(i) - 48);
  return n / POWERS_OF_TEN[decimals]!;
}

/** The values a digit group can mean: point or comma as the decimal mark, the other marks as thousands. */
export function mantissas(raw: string): Parsed[][] {
  // The common cases are told by where the one mark is, if any, read by character code rather than by three
  // patterns (a digit group starts with a digit, and its marks are followed by digits).
  let mark = -1;
  let marks = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 48 || c > 57) {
      if (marks++ === 0) mark = i;
    }
  }
  if (marks === 0) return [[{ value: decimalValue(raw, -1, 0), decimals: 0 }]];
  const decimals = raw.length - mark - 1;
  if (marks === 1 && decimals !== 3) {
    const c = raw.charCodeAt(mark);
    // A point or a lone comma before other than three digits can only be a decimal mark (a comma in French,
    // Spanish, German): the common case, read at once.
    if (c === 46 || c === 44) return [[{ value: decimalValue(raw, mark, decimals), decimals }]];
  } else if (marks === 1) {
    // One mark before three digits, what the general reading below gives at once: thousands ("1,800", "1 800"),
    // and a decimal mark for a point or comma ("1.800" in English), else two numbers ("5 100": a count and a value).
    const c = raw.charCodeAt(mark);
    const out: Parsed[][] = mark <= 3 ? [[{ value: decimalValue(raw, mark, 0), decimals: 0 }]] : [];
    if (c === 46 || c === 44) out.push([{ value: decimalValue(raw, mark, 3), decimals: 3 }]);
    else out.push([{ value: decimalValue(raw.slice(0, mark), -1, 0), decimals: 0 }, { value: decimalValue(raw.slice(mark + 1), -1, 0), decimals: 0 }]);
    return out;
  }
  // Every character of a digit group that is not a digit is a mark (NUMBER's group has no other): the groups and
  // marks are cut where the loop above found them, not by a split and a match of a pattern of the marks.
  const groups: string[] = [];
  const seps: string[] = [];
  let from = 0;
  for (let i = mark; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    groups.push(raw.slice(from, i));
    seps.push(raw[i]!);
    from = i + 1;
  }
  groups.push(raw.slice(from));
  // Several points and nothing else is a version or a dotted identifier, not a quantity.
  if (seps.length > 1 && seps.every((s) => s === ".") && groups.slice(1).some((g) => g.length !== 3)) return [];
  const out: Parsed[][] = [];
  // Every mark is a thousands separator.
  if (thousandsOk(groups) && !(seps.includes(".") && seps.includes(","))) {
    out.push([{ value: Number(groups.join("")), decimals: 0 }]);
  }
  // The last mark is the decimal mark ("." or ","), the others are thousands separators of another kind.
  const last = seps[seps.length - 1]!;
  if (last === "." || last === ",") {
    const head = groups.slice(0, -1);
    const others = seps.slice(0, -1);
    if (others.every((s) => s !== last) && (head.length === 1 || thousandsOk(head))) {
      const frac = groups[groups.length - 1]!;
      out.push([{ value: Number(`${head.join("")}.${frac}`), decimals: frac.length }]);
    }
  }
  // "1,2,3" or "5 100" may be separate numbers (a list, or a count before a number).
  const spaced = seps.every((s) => s !== "." && s !== ",");
  if (spaced || (seps.length > 1 && seps.every((s) => s === ","))) out.push(groups.map((g) => ({ value: Number(g), decimals: 0 })));
  return out;
}
