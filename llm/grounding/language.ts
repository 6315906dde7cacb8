import { francAll } from "franc";
import type { Language } from "../../artifacts/language.js";

/** ISO 639-1 (what requests use) to ISO 639-3 (what franc reads) for every language the service names. */
const ISO3: Record<string, string> = {
  en: "eng", fr: "fra", de: "deu", es: "spa", it: "ita", pt: "por", nl: "nld", pl: "pol", ru: "rus", uk: "ukr",
  tr: "tur", ar: "arb", he: "heb", hi: "hin", zh: "cmn", ja: "jpn", ko: "kor", vi: "vie", th: "tha", id: "ind",
  sv: "swe", da: "dan", no: "nob", fi: "fin", cs: "ces", el: "ell", hu: "hun", ro: "ron",
};
const ISO1 = new Map(Object.entries(ISO3).map(([one, three]) => [three, one]));
const ONLY = Object.values(ISO3);

/** Below this many letters (ids, numbers and identifiers removed) franc's guess is not trusted. */
export const MIN_LETTERS = 40;
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

/** The prose of model texts: ids, metric names, CamelCase names, numbers, code and bracketed tags removed. */
export function proseOf(texts: readonly string[]): string {
  return texts
    .join("\n")
    .replace(/\[[^\]]{0,12}\]/gu, " ")
    .replace(/\S*(?:[\d_/\\=<>{}@#]|\.(?=[\p{L}\d])|\p{Ll}\p{Lu})\S*/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/** What franc reads in the texts, against the asked language: null `matches` when there is too little to tell. */
export interface LanguageReading {
  detected: string | null;
  matches: boolean | null;
}

/**
 * Reads the language of a model's texts with franc (trigram profiles), restricted to the languages the service
 * names. A language franc has no profile for, or too little prose, is not judged.
 */
export function readLanguage(texts: readonly string[], asked: Language): LanguageReading {
  const expected = ISO3[asked.code.split("-")[0]!.toLowerCase()];
  const prose = proseOf(texts);
  const letters = prose.match(/\p{L}/gu)?.length ?? 0;
  if (!expected || letters < MIN_LETTERS) return { detected: null, matches: null };
  const [best] = francAll(prose, { only: ONLY, minLength: MIN_LETTERS });
  if (!best || best[0] === "und") return { detected: null, matches: null };
  return { detected: ISO1.get(best[0]) ?? best[0], matches: siblings(best[0], expected) };
}

/** Whether franc can check a language (the service answers the others unchecked). */
export function isCheckable(language: Language): boolean {
  return ISO3[language.code.split("-")[0]!.toLowerCase()] !== undefined;
}
