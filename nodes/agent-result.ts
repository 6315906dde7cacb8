import type { AgentResult, Finding, Recommendation } from "../domain/result.js";
import { overallAssessment, prioritizeFindings, toLegacyAnalysis } from "./findings.js";

/** One recommendation per finding that carries one, linked to it and to its citations. */
export function recommendationsOf(findings: readonly Finding[]): Recommendation[] {
  return findings.flatMap((f) =>
    f.recommendation
      ? [{ ...f.recommendation, confidence: f.confidence, finding_ids: [f.id], citations: [...f.citations], source: f.source }]
      : [],
  );
}

/** Assembles an agent's result (ARCHITECTURE.md "Agent names and results"), findings prioritized. */
export function buildAgentResult(
  agentName: string,
  findings: readonly Finding[],
  analyzedArtifacts: string[],
  errorMessage: string | null,
  summary: string | null,
): AgentResult {
  const ordered = prioritizeFindings(findings);
  const { severity, confidence } = overallAssessment(ordered);
  return {
    agent_name: agentName,
    findings: ordered,
    recommendations: recommendationsOf(ordered),
    severity,
    confidence,
    analyzed_artifacts: analyzedArtifacts,
    error_message: errorMessage,
    analysis: toLegacyAnalysis(ordered),
    summary,
  };
}
