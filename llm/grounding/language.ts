import { francAll } from "franc";
import type { Language } from "../../artifacts/language.js";

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
const SIBLINGS: readonly (readonly string[])[] = [["spa", "por"], ["dan", "nob", "swe"], ["rus", "ukr"]];
const siblings = (a: string, b: string) => a === b || SIBLINGS.some((group) => group.includes(a) && group.includes(b));
const siblingsOf = (code: string) => SIBLINGS.find((group) => group.includes(code)) ?? [];

/** Bracketed tags ("[fr]", "[high]") of at most 12 characters are left out of prose. */
const TAG = /\[[^\]]{0,12}\]/gu;
/** A word that is code, not prose: digits and code marks, a point before a letter or digit (ids, file names), CamelCase. */
const CODE_WORD = /[\d_/\\=<>{}@#]|\.[\p{L}\d]|\p{Ll}\p{Lu}/u;

/** The prose of one model text: ids, metric names, CamelCase names, numbers, code and bracketed tags removed, words joined by single spaces. */
export function proseOf(text: string): string {
  return text
    .replace(TAG, " ")
    .split(/\s+/u)
    .filter((word) => word && !CODE_WORD.test(word))
    .join(" ");
}

/**
 * Up to `chars` of prose, a slice of each text in turn, so one text does not fill the sample alone. Only the head
 * of each text can be sampled (a slice per text per turn), so only the head is cleaned.
 */
export function proseSample(texts: readonly string[], chars = SAMPLE_CHARS): string {
  const slice = Math.ceil(chars / TURNS);
  const head = Math.max(slice, Math.ceil(chars / Math.max(1, texts.length))) * 3;
  const proses = [...new Set(texts)].map((t) => proseOf(t.slice(0, head))).filter((p) => p);
  const parts: string[] = [];
  let used = 0;
  for (let offset = 0; used < chars && proses.some((p) => p.length > offset); offset += slice) {
    for (const p of proses) {
      if (used >= chars || p.length <= offset) continue;
      parts.push(p.slice(offset, offset + slice));
      used += parts.at(-1)!.length;
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
 * Reads the language of a model's texts against the asked language: franc (trigram profiles) compares
 * FIRST_READ_CHARS of their prose with the asked language, its siblings and the usual ones; a verdict of the
 * asked language is kept, anything else is read again on SAMPLE_CHARS, which decides. A language franc has no
 * profile for, or too little prose, is not judged.
 */
export function readLanguage(texts: readonly string[], asked: Language): LanguageReading {
  const expected = francCodeOf(asked);
  if (!expected) return { detected: null, matches: null };
  const candidates = [...new Set([expected, ...USUAL, ...siblingsOf(expected)])];
  const first = readProse(proseSample(texts, FIRST_READ_CHARS), expected, candidates);
  return first.matches === true ? first : readProse(proseSample(texts), expected, candidates);
}

/** Whether franc can check a language (the service answers the others unchecked). */
export function isCheckable(language: Language): boolean {
  return francCodeOf(language) !== undefined;
}

/** The ISO 639-3 code franc reads a language by, or undefined when franc has no profile for it. */
export function francCodeOf(language: Language): string | undefined {
  return ISO3[language.code.split("-")[0]!.toLowerCase()];
}
