import type { AdviceOutput, AgentReviewOutput } from "../schemas.js";

/** Every text of a review the model wrote, for the language check (pushed in turn: a list per finding was a twentieth of the check). */
export function reviewTexts(a: AgentReviewOutput): string[] {
  const texts = [a.summary];
  for (const f of a.findings) texts.push(f.title, f.description, f.recommendation_action ?? "", f.recommendation_rationale ?? "");
  for (const f of a.new_findings) texts.push(f.title, f.description);
  return texts;
}

/** The text of a cross-artifact summary, for the language check. */
export function summaryTexts(a: { summary: string }): string[] {
  return [a.summary];
}

/** Every text of the advice the model wrote, for the language check. */
export function adviceTexts(a: AdviceOutput): string[] {
  const texts = [a.advice];
  for (const r of a.recommendations) texts.push(r.action, r.rationale);
  return texts;
}
