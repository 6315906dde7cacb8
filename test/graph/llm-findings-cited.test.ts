import { describe, expect, it } from "vitest";
import { decodeAnalysisRequest } from "../../artifacts/request.js";
import { buildAnalysisGraph } from "../../graph/build.js";
import { runAnalysis } from "../../graph/run.js";
import type { KnowledgePort } from "../../knowledge/port.js";
import type { LlmPort } from "../../llm/port.js";
import { testDeps } from "../support/analysis-deps.js";

/** Cites every finding that has no citation yet with a document named after its id. */
const citingKnowledge: KnowledgePort = {
  citeFindings: async (findings) => findings.map((f) => (f.citations.length ? f : { ...f, citations: [`doc-${f.id}`] })),
  describe: () => [],
};

/** A model port that adds one finding of its own, uncited, as a real review does. */
const addingModel: LlmPort = {
  reviewAgent: async (req) => ({
    findings: [
      ...req.findings,
      { id: "training.llm_noticed", title: "t", description: "d", evidence: [], severity: "low", confidence: 0.5, source: "llm", citations: [], recommendation: { action: "a", rationale: "r", category: "training", effort: "low" } },
    ],
    summary: null,
  }),
  summarize: async () => "summary",
  advise: async (req) => ({ recommendations: req.recommendations, advice: "advice" }),
  startUsage: () => null,
  loadClient: async () => {},
  describe: () => ({ mode: "test" }),
};

describe("findings the model adds", () => {
  it("are cited like detector findings, and so are their recommendations", async () => {
    const ctx = decodeAnalysisRequest({ training_artifacts: { metrics: { train_loss: [2, 1.5, 1.2, 1.0, 0.9] } } }, "r");
    const res = await runAnalysis(buildAnalysisGraph(), ctx, testDeps({ knowledge: citingKnowledge, llm: addingModel }), { workers: 3 });
    const training = res.agent_results.TrainingArtifactsAnalyzer!;
    const added = training.findings.find((f) => f.id === "training.llm_noticed")!;
    expect(added.source).toBe("llm");
    expect(added.citations).toEqual(["doc-training.llm_noticed"]);
    expect(training.recommendations.find((r) => r.finding_ids.includes("training.llm_noticed"))!.citations).toEqual(["doc-training.llm_noticed"]);
  });
});
