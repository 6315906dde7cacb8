// Finding ids are <kind>.<name> (training.overfitting, cross.leakage_x_perfect_scores, training.llm.x); detector
// rule ids are letters, a dash and two digits (TH-13, CK-01).
const FINDING_ID = /(?<![\p{L}\p{N}_.])(?:dataset|checks|training|checkpoint|cross)(?:\.[a-z0-9_]+)+/gu;
const RULE_ID = /(?<![\p{L}\p{N}_-])[A-Z]{2,4}-\d{2}(?![\p{N}])/gu;

/** Ids a text cites: finding ids, then detector rule ids. */
export const citedIds = (text: string): string[] => [...text.matchAll(FINDING_ID), ...text.matchAll(RULE_ID)].map((m) => m[0]);
