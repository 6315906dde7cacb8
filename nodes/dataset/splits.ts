/** Canonical split roles; other split names are kept as they are. */
export type SplitRole = "train" | "val" | "test";

const SPLIT_ALIASES: Record<string, SplitRole> = {
  train: "train",
  training: "train",
  trn: "train",
  val: "val",
  valid: "val",
  validation: "val",
  dev: "val",
  eval: "val",
  test: "test",
  testing: "test",
  holdout: "test",
  hold_out: "test",
};

/** "training" → "train", "validation"/"dev" → "val", "holdout" → "test"; unknown names are returned lower-cased. */
export function canonicalSplit(name: string): string {
  const key = name.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return SPLIT_ALIASES[key] ?? key;
}

/** Whether a name (after canonicalization) is one of the known split roles. */
export function isSplitName(name: string): boolean {
  return canonicalSplit(name) in { train: 1, val: 1, test: 1 };
}

/** The evaluation splits present, test first (it is the one a reported score usually comes from). */
export function evaluationSplits(splits: Iterable<string>): string[] {
  const present = new Set(splits);
  return (["test", "val"] as const).filter((s) => present.has(s));
}
