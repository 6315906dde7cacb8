import type { Finding } from "../../../domain/result.js";
import type { CrossEvidence, CrossRule } from "../evidence.js";
import { CHECKPOINT_RULES } from "./checkpoint.js";
import { CURVE_RULES } from "./curves.js";
import { DATA_QUALITY_RULES } from "./data-quality.js";
import { IMBALANCE_RULES } from "./imbalance.js";
import { LEAKAGE_RULES } from "./leakage.js";
import { LINEAGE_RULES } from "./lineage.js";
import { SHIFT_RULES } from "./shift.js";

/** Every cross-artifact rule, run by `integrate` in this order. */
export const CROSS_RULES: readonly CrossRule[] = [
  ...LEAKAGE_RULES,
  ...SHIFT_RULES,
  ...IMBALANCE_RULES,
  ...DATA_QUALITY_RULES,
  ...CHECKPOINT_RULES,
  ...CURVE_RULES,
  ...LINEAGE_RULES,
];

export function runCrossRules(ev: CrossEvidence, rules: readonly CrossRule[] = CROSS_RULES): Finding[] {
  return rules.flatMap((rule) => rule(ev));
}
