import type { AdviceOutput, AgentReviewOutput } from "../schemas.js";

/** Every text of a review the model wrote, for the language check. */
export function reviewTexts(a: AgentReviewOutput): string[] {
  return [
    a.summary,
    ...a.findings.flatMap((f) => [f.title, f.description, f.recommendation_action ?? "", f.recommendation_rationale ?? ""]),
    ...a.new_findings.flatMap((f) => [f.title, f.description]),
  ];
}

/** The text of a cross-artifact summary, for the language check. */
export function summaryTexts(a: { summary: string }): string[] {
  return [a.summary];
}

/** Every text of the advice the model wrote, for the language check. */
export function adviceTexts(a: AdviceOutput): string[] {
  return [a.advice, ...a.recommendations.flatMap((r) => [r.action, r.rationale])];
}
