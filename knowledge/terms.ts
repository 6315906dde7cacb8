/** Words too common in this corpus and in findings to help ranking. */
const STOP_WORDS = new Set(
  "a an and are as at be by for from has have in into is it its of on or that the their then there these this to was were when which while will with".split(
    " ",
  ),
);

/** Suffixes stripped so that "normalized", "normalization" and "normalize" meet at one term. */
const SUFFIX = /(izations?|isations?|ations?|izing|ising|izes|ises|ized|ised|ize|ise|ings?|ness|ments?|edly|ed|ies|es|s)$/;

/**
 * Normalizes one token for indexing and querying alike: lower case, stop words dropped, a light suffix strip
 * that keeps at least four letters (a stemmer in miniature: enough for this corpus's vocabulary).
 */
export function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (t.length < 2 || STOP_WORDS.has(t)) return null;
  const stem = t.replace(SUFFIX, "");
  return stem.length >= 4 ? stem : t;
}
