import type { PlannedRecommendation } from "./plan.js";

/** How many steps the templated advice spells out; the rest stay in additional_outputs.recommendations. */
const SHOWN = 6;

/** The advice without a language model: the top of the plan, one line per step, with what it addresses. */
export function templateAdvice(plan: readonly PlannedRecommendation[]): string | null {
  if (plan.length === 0) return null;
  const lines = plan.slice(0, SHOWN).map((r) => {
    const addresses = r.finding_ids.length ? ` Addresses ${r.finding_ids.join(", ")}.` : "";
    const sources = r.citations.length ? ` See ${r.citations.join(", ")}.` : "";
    return `${r.priority}. [${r.category}, ${r.effort} effort] ${r.action}${addresses}${sources}`;
  });
  const rest = plan.length - SHOWN;
  if (rest > 0) lines.push(`…and ${rest} more in additional_outputs.recommendations.`);
  return [`Optimization plan, most expected impact first (${plan.length} steps):`, ...lines].join("\n");
}
