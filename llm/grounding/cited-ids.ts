// Finding ids are <kind>.<name> (training.overfitting, cross.leakage_x_perfect_scores, training.llm.x); detector
// rule ids are letters, a dash and two digits (TH-13, CK-01).
const FINDING_ID = /(?<![\p{L}\p{N}_.])(?:dataset|checks|training|checkpoint|cross)(?:\.[a-z0-9_]+)+/gu;
const RULE_ID = /(?<![\p{L}\p{N}_-])[A-Z]{2,4}-\d{2}(?![\p{N}])/gu;

/** A finding id's start, looked for without look-behind or Unicode classes before the full pattern is run. */
export const FINDING_PREFIX = /(?:dataset|checks|training|checkpoint|cross)\./;

/** Ids a sentence cites: finding ids and detector rule ids (finding ids only where its text may cite one). */
export function citedIds(text: string, mayCiteFindings = true): string[] {
  const ids: string[] = [];
  if (mayCiteFindings && FINDING_PREFIX.test(text)) matchesOf(FINDING_ID, text, ids);
  // A rule id has a dash: most sentences have none, and are spared the second scan.
  if (text.includes("-")) matchesOf(RULE_ID, text, ids);
  return ids;
}

/** Every match of a global pattern in `text`, added to `out`: exec from the start, without matchAll's copy of the pattern. */
function matchesOf(pattern: RegExp, text: string, out: string[]): void {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) out.push(m[0]);
}
