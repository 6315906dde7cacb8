import { describe, expect, it } from "vitest";
import type { Finding } from "../../../domain/result.js";
import { applyReview, LLM_CONFIDENCE_MARGIN, MAX_LLM_CONFIDENCE, MAX_NEW_FINDINGS } from "../../../llm/review.js";
import type { AgentReviewOutput } from "../../../llm/schemas.js";
import { detectorFinding } from "../../../nodes/findings.js";

const overfitting: Finding = {
  ...detectorFinding({
    id: "training.overfitting",
    title: "Validation loss rises after its minimum",
    description: "val/loss bottoms at 0.55 (epoch 23) and ends at 1.18.",
    evidence: [{ rule_id: "TH-13", artifact: "training_artifacts.metrics:val/loss", text: "min 0.55 at epoch 23, final 1.18", observed: 1.18, threshold: 0.6 }],
    severity: "high",
    confidence: 0.8,
    recommendation: { action: "Enable early stopping.", rationale: "Keeps the best epoch.", category: "training", effort: "low" },
  }),
  citations: ["prechelt-1998"],
};
const plateau: Finding = detectorFinding({
  id: "training.plateau",
  title: "Plateau",
  description: "No improvement for 12 evaluations.",
  evidence: [{ rule_id: "TH-06", artifact: "training_artifacts.metrics:val/loss", text: "12 evaluations without improvement" }],
  severity: "medium",
  confidence: 0.6,
  recommendation: null,
});

const reviewed = (over: Partial<AgentReviewOutput["findings"][number]>): AgentReviewOutput["findings"][number] => ({
  id: "training.overfitting",
  title: "Surapprentissage",
  description: "La perte de validation remonte de 0,55 à 1,18.",
  recommendation_action: "Activer l'arrêt précoce.",
  recommendation_rationale: null,
  confidence: null,
  confidence_note: null,
  ...over,
});

const review = (over: Partial<AgentReviewOutput>): AgentReviewOutput => ({ summary: "s", findings: [], new_findings: [], ...over });

describe("applyReview", () => {
  it("takes the model's wording but keeps id, evidence, severity, source and citations", () => {
    const [out] = applyReview([overfitting], review({ findings: [reviewed({})] }), "training");
    expect(out).toMatchObject({
      id: "training.overfitting",
      title: "Surapprentissage",
      description: "La perte de validation remonte de 0,55 à 1,18.",
      severity: "high",
      confidence: 0.8,
      source: "detector",
      evidence: overfitting.evidence,
      citations: ["prechelt-1998"],
      recommendation: { action: "Activer l'arrêt précoce.", rationale: "Keeps the best epoch.", category: "training", effort: "low" },
    });
  });

  it("never drops a detector finding, reviewed or not, and ignores ids it does not know", () => {
    const out = applyReview([overfitting, plateau], review({ findings: [reviewed({ id: "training.made_up" })] }), "training");
    expect(out.map((f) => f.id)).toEqual(["training.overfitting", "training.plateau"]);
    expect(out[0]).toEqual(overfitting);
  });

  it("moves confidence only with a reason, by at most 0.2, and records the reason", () => {
    const noReason = applyReview([overfitting], review({ findings: [reviewed({ confidence: 0.3 })] }), "training")[0]!;
    expect(noReason.confidence).toBe(0.8);
    expect(noReason.confidence_note).toBeUndefined();
    const lowered = applyReview([overfitting], review({ findings: [reviewed({ confidence: 0.1, confidence_note: "dropout explains part of the gap" })] }), "training")[0]!;
    expect(lowered.confidence).toBe(0.6);
    expect(lowered.confidence_note).toBe("dropout explains part of the gap");
    const raised = applyReview([overfitting], review({ findings: [reviewed({ confidence: 1, confidence_note: "train loss 0.009" })] }), "training")[0]!;
    expect(raised.confidence).toBe(0.95);
  });

  it("gives a finding without a recommendation the model's action, categorized by the artifact kind", () => {
    const [out] = applyReview([plateau], review({ findings: [reviewed({ id: "training.plateau", recommendation_action: "Decay the LR.", recommendation_rationale: "Stuck." })] }), "training");
    expect(out!.recommendation).toEqual({ action: "Decay the LR.", rationale: "Stuck.", category: "training", effort: "medium" });
  });

  it("adds the model's own findings as source llm with namespaced unique ids and capped confidence and count", () => {
    const item = { name: "LR warm-up too short!", title: "Short warm-up", description: "Loss spikes right after warm-up.", evidence: "spike at step 300", severity: "medium" as const, confidence: 0.99, recommendation: null };
    const out = applyReview([overfitting], review({ new_findings: Array.from({ length: 8 }, () => item) }), "training");
    const mine = out.filter((f) => f.source === "llm");
    expect(mine).toHaveLength(MAX_NEW_FINDINGS);
    expect(mine.map((f) => f.id).slice(0, 2)).toEqual(["training.llm.lr_warm_up_too_short", "training.llm.lr_warm_up_too_short_2"]);
    expect(new Set(mine.map((f) => f.id)).size).toBe(MAX_NEW_FINDINGS);
    expect(mine[0]!.confidence).toBeLessThan(overfitting.confidence);
    expect(mine[0]).toMatchObject({
      confidence: Math.min(MAX_LLM_CONFIDENCE, Math.round((overfitting.confidence - LLM_CONFIDENCE_MARGIN) * 100) / 100),
      evidence: [{ rule_id: "LLM", artifact: "training_artifacts", text: "spike at step 300" }],
      citations: [],
    });
  });

  it("skips a new finding without a title or description", () => {
    const blank = { name: "x", title: " ", description: "d", evidence: "e", severity: "low" as const, confidence: 0.5, recommendation: null };
    expect(applyReview([], review({ new_findings: [blank] }), "dataset")).toEqual([]);
  });
});
