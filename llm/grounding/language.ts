import { francAll } from "franc";
import type { Language } from "../../artifacts/language.js";
import { classOf, codePointAt, isSpace, LETTER, LOWER, UPPER, widthOf } from "./char-classes.js";
import { clearlyIn } from "./function-words.js";

/** ISO 639-1 (what requests use) to ISO 639-3 (what franc reads) for every language the service names. */
const ISO3: Record<string, string> = {
  en: "eng", fr: "fra", de: "deu", es: "spa", it: "ita", pt: "por", nl: "nld", pl: "pol", ru: "rus", uk: "ukr",
  tr: "tur", ar: "arb", he: "heb", hi: "hin", zh: "cmn", ja: "jpn", ko: "kor", vi: "vie", th: "tha", id: "ind",
  sv: "swe", da: "dan", no: "nob", fi: "fin", cs: "ces", el: "ell", hu: "hun", ro: "ron",
};
const ISO1 = new Map(Object.entries(ISO3).map(([one, three]) => [three, one]));
/**
 * What franc compares an answer with besides the asked language: the languages a model most often slides into.
 * Each comparison costs a trigram distance; a language outside the list is read as its nearest one in it, which
 * is what the check needs (not the asked language). Other scripts are told apart by the script alone.
 */
const USUAL = ["eng", "fra", "deu", "spa", "ita", "por", "nld", "rus", "cmn", "jpn", "kor", "arb", "hin"];

/** Below this many letters (ids, numbers and identifiers removed) franc's guess is not trusted. */
export const MIN_LETTERS = 40;
/**
 * franc reads at most this much prose, taken in turns from every text, so each text has its say; its cost grows
 * with the text (about 0.1 ms for 240 characters) and 240 characters of prose (40 words or so) identify a
 * language well enough to catch a wrong one.
 */
export const SAMPLE_CHARS = 240;
/**
 * The first, cheaper read: a verdict of the asked language on this much prose is kept, anything else is read
 * again on SAMPLE_CHARS. On 80 sentences of ML prose in five languages franc erred on 1-3 at 40-80 characters
 * (English read as French among them) and on none from 100 on; most answers are in the asked language, so most
 * cost only this read.
 */
export const FIRST_READ_CHARS = 120;
/** Each turn takes this share of the sample from one text. */
const TURNS = 4;
/**
 * Languages franc confuses on short texts: reading a sibling of the asked language is not a mismatch. franc's
 * scores are no help there: on a few hundred letters of English prose it scores Danish, French and Dutch all
 * above 0.95 of English, so only its first guess is used.
 */
const SIBLINGS: readonly (readonly string[])[] = [
  ["spa", "por"],
  ["dan", "nob", "swe"],
  ["rus", "ukr"],
];
const siblings = (a: string, b: string) => a === b || SIBLINGS.some((group) => group.includes(a) && group.includes(b));
const siblingsOf = (code: string) => SIBLINGS.find((group) => group.includes(code)) ?? [];

/** The longest bracketed tag ("[fr]", "[high]") left out of prose, in code points between the brackets. */
const MAX_TAG = 12;

/** What proseOf asks of an ASCII character, by code: white space, code ([\d_/\\=<>{}@#]), letter case, "[". */
const A_SPACE = 1;
const A_CODE = 2;
const A_LOWER = 4;
const A_UPPER = 8;
const A_OPEN = 16;
const ASCII = Uint8Array.from({ length: 128 }, (_, c) => {
  const bits = classOf(c);
  return (isSpace(c) ? A_SPACE : 0) | ((bits & LOWER) !== 0 ? A_LOWER : 0) | ((bits & UPPER) !== 0 ? A_UPPER : 0) | (c === 91 ? A_OPEN : 0);
});
for (const c of "0123456789_/\\=<>{}@#") ASCII[c.charCodeAt(0)]! |= A_CODE;

/** Where a bracketed tag opened at `open` ends (after its "]"), or -1 when none closes within MAX_TAG code points. */
function tagEnd(text: string, open: number): number {
  for (let i = open + 1, inside = 0; i < text.length; inside++) {
    if (text.charCodeAt(i) === 93) return i + 1;
    if (inside === MAX_TAG) return -1;
    i += widthOf(codePointAt(text, i));
  }
  return -1;
}

/**
 * The prose of one model text: ids, metric names, CamelCase names, numbers, code and bracketed tags removed, the
 * words left joined by single spaces. One pass over the characters, for what was a replace, a split and a
 * pattern per word (a tenth of the pass's time): a tag of at most MAX_TAG code points separates words, white
 * space (the \s of a pattern) ends them, and a word is left out when it holds a code character, a point before
 * a letter or digit (an id, a file name) or a lower-case letter before an upper-case one (CamelCase). With
 * `atLeast`, it stops at the first word that makes the prose that long: a beginning of the whole prose. Words kept
 * one after the other with a single space between them as written are taken as one slice of the text (most
 * prose is such runs): a slice and a join per word were half of the time.
 */
export function proseOf(text: string, atLeast = Infinity): string {
  let out = "";
  // The run of kept words being read, [chunk, chunkEnd) of the text, and the length of the prose so far.
  let chunk = -1;
  let chunkEnd = -1;
  let used = 0;
  let start = -1;
  let code = false;
  let lower = false;
  let point = false;
  const length = text.length;
  for (let i = 0; i <= length; ) {
    let c = i < length ? text.charCodeAt(i) : 32;
    let tag = -1;
    let space: boolean;
    let upper: boolean;
    let isLower: boolean;
    let letter: boolean;
    let width = 1;
    if (c < 128) {
      const bits = ASCII[c]!;
      if ((bits & A_OPEN) !== 0) tag = tagEnd(text, i);
      space = (bits & A_SPACE) !== 0;
      if ((bits & A_CODE) !== 0) code = true;
      isLower = (bits & A_LOWER) !== 0;
      upper = (bits & A_UPPER) !== 0;
      letter = isLower || upper;
    } else {
      c = codePointAt(text, i);
      width = widthOf(c);
      const bits = classOf(c);
      space = isSpace(c);
      isLower = (bits & LOWER) !== 0;
      upper = (bits & UPPER) !== 0;
      letter = (bits & LETTER) !== 0;
    }
    if (tag < 0 && !space) {
      if (start < 0) start = i;
      if ((lower && upper) || (point && letter)) code = true;
      lower = isLower;
      point = c === 46;
      i += width;
      continue;
    }
    if (start >= 0 && !code) {
      if (chunk >= 0 && start === chunkEnd + 1 && text.charCodeAt(chunkEnd) === 32) chunkEnd = i;
      else {
        if (chunk >= 0) out += out ? ` ${text.slice(chunk, chunkEnd)}` : text.slice(chunk, chunkEnd);
        chunk = start;
        chunkEnd = i;
      }
      used += (used ? 1 : 0) + (i - start);
      if (used >= atLeast) break;
    }
    start = -1;
    code = lower = point = false;
    i = tag < 0 ? i + 1 : tag;
  }
  if (chunk >= 0) out += out ? ` ${text.slice(chunk, chunkEnd)}` : text.slice(chunk, chunkEnd);
  return out;
}

/** Up to `chars` of prose, a slice of each text in turn, so one text does not fill the sample alone. */
export function proseSample(texts: readonly string[], chars = SAMPLE_CHARS): string {
  const slice = Math.ceil(chars / TURNS);
  // Only the head of each text can be sampled (a slice per text per turn), so only the head is cleaned.
  const head = Math.max(slice, Math.ceil(chars / Math.max(1, texts.length))) * 3;
  const proses: string[] = [];
  const heads: string[] = [];
  const parts: string[] = [];
  let used = 0;
  // The first turn cleans each text as it reaches it, only as far as its slice: texts after the sample is full
  // are never cleaned, and the rest of a text's head only when the first turn leaves room for more turns.
  for (const text of new Set(texts)) {
    if (used >= chars) break;
    const cleaned = text.slice(0, head);
    const prose = proseOf(cleaned, slice);
    if (!prose) continue;
    proses.push(prose);
    heads.push(cleaned);
    parts.push(prose.slice(0, slice));
    used += parts[parts.length - 1]!.length;
  }
  if (used < chars) for (let k = 0; k < proses.length; k++) proses[k] = proseOf(heads[k]!);
  for (let offset = slice; used < chars && proses.some((p) => p.length > offset); offset += slice) {
    for (const p of proses) {
      if (used >= chars || p.length <= offset) continue;
      const part = p.slice(offset, offset + slice);
      parts.push(part);
      used += part.length;
    }
  }
  return parts.join(" ");
}

/** What franc reads in the texts, against the asked language: null `matches` when there is too little to tell. */
export interface LanguageReading {
  detected: string | null;
  matches: boolean | null;
}

/** franc's first guess on `prose` among `candidates`, against the asked language (ISO 639-3). */
function readProse(prose: string, expected: string, candidates: string[]): LanguageReading {
  if (prose.replace(/\P{L}+/gu, "").length < MIN_LETTERS) return { detected: null, matches: null };
  const [best] = francAll(prose, { only: candidates, minLength: MIN_LETTERS });
  if (!best || best[0] === "und") return { detected: null, matches: null };
  return { detected: ISO1.get(best[0]) ?? best[0], matches: siblings(best[0], expected) };
}

/**
 * Reads the language of a model's texts against the asked language: SAMPLE_CHARS of prose clearly in the
 * asked language by its function words is confirmed at once (`clearlyIn`, a few microseconds); otherwise franc
 * (trigram profiles) compares it with the asked language, its siblings and the usual ones, a verdict of the
 * asked language is kept, and anything else is read again on SAMPLE_CHARS, which decides. A language franc has no
 * profile for, or too little prose, is not judged.
 */
export function readLanguage(texts: readonly string[], asked: Language): LanguageReading {
  const expected = francCodeOf(asked);
  if (!expected) return { detected: null, matches: null };
  const sample = proseSample(texts);
  if (clearlyIn(sample, expected)) return { detected: ISO1.get(expected)!, matches: true };
  const candidates = [...new Set([expected, ...USUAL, ...siblingsOf(expected)])];
  const first = readProse(proseSample(texts, FIRST_READ_CHARS), expected, candidates);
  return first.matches === true ? first : readProse(sample, expected, candidates);
}

/** Whether franc can check a language (the service answers the others unchecked). */
export function isCheckable(language: Language): boolean {
  return francCodeOf(language) !== undefined;
}

/** The ISO 639-3 code franc reads a language by, or undefined when franc has no profile for it. */
export function francCodeOf(language: Language): string | undefined {
  return ISO3[language.code.split("-")[0]!.toLowerCase()];
}
