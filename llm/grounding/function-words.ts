import { classOf, codePointAt, LETTER, LATIN, widthOf } from "./char-classes.js";

/**
 * A cheap first verdict on the language of prose, before franc: the function words of the Latin-script languages
 * models most often answer in, each list holding only words that are not also common words of another list's
 * language ("de", "la", "en", "que", "un", "con", "es" are left out). Prose in the asked language is full
 * of its own and holds almost none of the others', so counting them confirms the usual answer for a few
 * microseconds; anything less clear-cut is left to franc.
 */
const FUNCTION_WORDS: Record<string, ReadonlySet<string>> = {
  eng: new Set("the and is are of to with this that from was were which it be by not at after before while than has have its".split(" ")),
  fra: new Set("les des du est et une dans pour qui pas sur au aux avec cette sont plus ne ces leur après mais".split(" ")),
  spa: new Set("el los las del al lo y más pero está están también cuando muy después porque desde hasta este esta hay sobre".split(" ")),
  deu: new Set("der die das und ist nicht mit ein eine den dem von zu auf für wird sich nach bei auch".split(" ")),
  ita: new Set("il di che non della delle degli dei nel nella sono è gli anche più questo dopo".split(" ")),
  por: new Set("um não em é com mais também pelo pela ao nas nos foi uma".split(" ")),
  nld: new Set("het een van niet met op voor dat zijn wordt naar bij ook nog".split(" ")),
};

/** Function words of the asked language the prose must hold to be confirmed without franc... */
export const MIN_FUNCTION_WORDS = 4;
/** ... at least this share of its words (prose of an unlisted language with a few English words is not clear) ... */
const MIN_SHARE = 1 / 8;
/** ... and this many times those of any other listed language. */
const DOMINANCE = 3;

/** The listed languages, by index: a word's languages and the hits of a prose are kept by these indexes. */
const LISTED = Object.keys(FUNCTION_WORDS);
/** Each function word and the indexes of the languages it belongs to: one lookup per word of the prose. */
const LANGUAGES_OF = new Map<string, number[]>();
for (const [index, code] of LISTED.entries()) for (const w of FUNCTION_WORDS[code]!) LANGUAGES_OF.set(w, [...(LANGUAGES_OF.get(w) ?? []), index]);
/** The longest function word (UTF-16 units, lower case): a longer word is counted without being cut out and looked up. */
const LONGEST = Math.max(...[...LANGUAGES_OF.keys()].map((w) => w.length));

/** Whether some letter of `prose` is of another script than Latin: function words cannot speak for such prose (Japanese with English in it). */
export function hasOtherScript(prose: string): boolean {
  for (let i = 0; i < prose.length; ) {
    const c = codePointAt(prose, i);
    // ASCII letters are Latin: only the others are asked.
    if (c >= 128 && (classOf(c) & (LETTER | LATIN)) === LETTER) return true;
    i += widthOf(c);
  }
  return false;
}

/** Each run of letters (\p{L}+) of `text`, in order, as its [start, end) in `text`, read by character code. */
export function letterRuns(text: string, visit: (start: number, end: number) => void): void {
  let start = -1;
  const length = text.length;
  for (let i = 0; i < length; ) {
    let c = text.charCodeAt(i);
    let width = 1;
    let letter: boolean;
    // An ASCII letter is one with bit 5 set in a-z; other characters are read whole and asked their class.
    if (c < 128) letter = (c | 32) >= 97 && (c | 32) <= 122;
    else {
      c = codePointAt(text, i);
      width = widthOf(c);
      letter = (classOf(c) & LETTER) !== 0;
    }
    if (letter) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      visit(start, i);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) visit(start, length);
}

/**
 * Whether `prose` is clearly in `language` (ISO 639-3) by its function words: Latin script only, at least
 * MIN_FUNCTION_WORDS of them, MIN_SHARE of the words, and DOMINANCE times those of any other listed language.
 * False means "not clear", never "another language".
 */
export function clearlyIn(prose: string, language: string): boolean {
  const asked = LISTED.indexOf(language);
  if (asked < 0 || hasOtherScript(prose)) return false;
  const hits = LISTED.map(() => 0);
  let words = 0;
  const lower = prose.toLowerCase();
  letterRuns(lower, (start, end) => {
    words++;
    if (end - start > LONGEST) return;
    const indexes = LANGUAGES_OF.get(lower.slice(start, end));
    if (indexes) for (const index of indexes) hits[index]!++;
  });
  const mine = hits[asked]!;
  if (mine < MIN_FUNCTION_WORDS || mine < words * MIN_SHARE) return false;
  return hits.every((count, index) => index === asked || count * DOMINANCE <= mine);
}
