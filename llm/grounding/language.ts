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
 * with the text (about 2 ms for 2,000 characters) and 240 characters of prose (40 words or so) identify a language well enough to catch a wrong one.
 */
export const SAMPLE_CHARS = 240;
const SLICE_CHARS = 60;
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

/** A word that is not prose: an id, metric or CamelCase name, a number, code. */
const NOT_PROSE = /[\d_/\\=<>{}@#]|\.[\p{L}\d]|\p{Ll}\p{Lu}/u;

/** The prose of one model text: ids, metric names, CamelCase names, numbers, code and bracketed tags removed. */
export function proseOf(text: string): string {
  return text
    .replace(/\[[^\]]{0,12}\]/gu, " ")
    .split(/\s+/u)
    .filter((word) => word && !NOT_PROSE.test(word))
    .join(" ");
}

/** Up to SAMPLE_CHARS of prose, a slice of each text in turn (whole words), so no text is left unread. */
export function proseSample(texts: readonly string[]): string {
  // Only the head of each text can be sampled (a slice per text per turn), so only the head is cleaned.
  const head = Math.max(SLICE_CHARS, Math.ceil(SAMPLE_CHARS / Math.max(1, texts.length))) * 3;
  const proses = [...new Set(texts)].map((t) => proseOf(t.slice(0, head))).filter((p) => p.length > 0);
  const parts: string[] = [];
  let used = 0;
  for (let offset = 0; used < SAMPLE_CHARS && proses.some((p) => p.length > offset); offset += SLICE_CHARS) {
    for (const p of proses) {
      if (used >= SAMPLE_CHARS || p.length <= offset) continue;
      const slice = p.slice(offset, offset + SLICE_CHARS);
      parts.push(slice);
      used += slice.length;
    }
  }
  return parts.join(" ");
}

/** What franc reads in the texts, against the asked language: null `matches` when there is too little to tell. */
export interface LanguageReading {
  detected: string | null;
  matches: boolean | null;
}

/**
 * Reads the language of a model's texts with franc (trigram profiles), against the asked language, its siblings
 * and the usual ones. A language franc has no profile for, or too little prose, is not judged.
 */
export function readLanguage(texts: readonly string[], asked: Language): LanguageReading {
  const expected = ISO3[asked.code.split("-")[0]!.toLowerCase()];
  const prose = proseSample(texts);
  const letters = prose.match(/\p{L}/gu)?.length ?? 0;
  if (!expected || letters < MIN_LETTERS) return { detected: null, matches: null };
  const [best] = francAll(prose, { only: [...new Set([expected, ...USUAL, ...siblingsOf(expected)])], minLength: MIN_LETTERS });
  if (!best || best[0] === "und") return { detected: null, matches: null };
  return { detected: ISO1.get(best[0]) ?? best[0], matches: siblings(best[0], expected) };
}

/** Whether franc can check a language (the service answers the others unchecked). */
export function isCheckable(language: Language): boolean {
  return ISO3[language.code.split("-")[0]!.toLowerCase()] !== undefined;
}
