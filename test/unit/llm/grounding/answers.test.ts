import { describe, expect, it } from "vitest";
import { groundAdvice, groundReview, groundSummary } from "../../../../llm/grounding/answers.js";
import { collectEvidence } from "../../../../llm/grounding/evidence.js";
import { GroundingTally } from "../../../../llm/grounding/report.js";
import type { AgentReviewOutput } from "../../../../llm/schemas.js";

const shown = {
  findings: [{ id: "training.overfitting", severity: "medium", evidence: [{ rule_id: "TH-13", text: "val loss rose from 0.41 to 0.58 after epoch 12" }] }],
  digest: { best_epoch: 12, epochs: 40 },
};
const evidence = collectEvidence(shown);
const tally = () => new GroundingTally({ expected: "en", detected: "en", outcome: "ok" });

const review = (over: Partial<AgentReviewOutput> = {}): AgentReviewOutput => ({
  summary: "The run overfits after epoch 12. It ran 40 epochs. Loss rose by 987.65 %.",
  findings: [
    { id: "training.overfitting", title: "Overfitting", description: "Validation loss rose from 0.41 to 0.58. This is critical.", recommendation_action: "Stop at epoch 12.", recommendation_rationale: null, confidence: null, confidence_note: null },
    { id: "training.made_up", title: "x", description: "y", recommendation_action: null, recommendation_rationale: null, confidence: null, confidence_note: null },
  ],
  new_findings: [],
  ...over,
});

describe("groundReview", () => {
  it("removes failing sentences, drops entries for unknown ids and counts each by reason", () => {
    const t = tally();
    const out = groundReview(review(), evidence, t);
    expect(out.summary).toBe("The run overfits after epoch 12. It ran 40 epochs.");
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]).toMatchObject({ description: "Validation loss rose from 0.41 to 0.58.", recommendation_action: "Stop at epoch 12." });
    expect(t.report()).toMatchObject({ removed: 3, reasons: { number: 1, unknown_id: 1, severity: 1, language: 0 } });
    expect(t.report().checked).toBe(t.report().grounded + t.report().removed);
  });

  it("drops a model finding whose claim fails and caps a severity above the agent's top", () => {
    const item = { name: "lr", title: "LR too high", description: "Loss spikes at epoch 12.", evidence: "best_epoch 12", severity: "high" as const, confidence: 0.9, recommendation: null };
    const t = tally();
    const out = groundReview(review({ new_findings: [item, { ...item, name: "bad", evidence: "spike at step 6173" }] }), evidence, t);
    expect(out.new_findings).toEqual([{ ...item, severity: "medium" }]);
    expect(t.report()).toMatchObject({ dropped_findings: 1 });
    expect(t.report().reasons.severity).toBeGreaterThanOrEqual(2);
  });
});

describe("groundSummary and groundAdvice", () => {
  it("keep grounded sentences and drop rewordings of priorities that do not exist", () => {
    expect(groundSummary("Stop at epoch 12. Gap of 0.99.", evidence, tally())).toBe("Stop at epoch 12.");
    const out = groundAdvice({ advice: "Do 1 first.", recommendations: [{ priority: 1, action: "Stop at epoch 12.", rationale: "Saves 28 epochs." }, { priority: 7, action: "x", rationale: "y" }] }, 1, evidence, tally());
    expect(out.recommendations).toEqual([{ priority: 1, action: "Stop at epoch 12.", rationale: "" }]);
  });
});
