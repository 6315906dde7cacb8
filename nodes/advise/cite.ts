import type { Finding } from "../../domain/result.js";
import type { KnowledgePort } from "../../knowledge/port.js";
import type { PlannedRecommendation } from "./plan.js";

/** A recommendation stated as a finding, so the knowledge base can cite it by its text. */
function asFinding(rec: PlannedRecommendation): Finding {
  return {
    id: `advice.${rec.theme ?? "general"}`,
    title: rec.action,
    description: rec.rationale,
    evidence: [],
    severity: "info",
    confidence: rec.confidence,
    source: rec.source,
    citations: [],
    recommendation: null,
  };
}

/** Gives every recommendation without a citation (e.g. one the language model added) the documents its text matches. */
export async function citeUncited(
  plan: readonly PlannedRecommendation[],
  knowledge: KnowledgePort,
  signal?: AbortSignal,
): Promise<PlannedRecommendation[]> {
  const uncited = plan.filter((r) => r.citations.length === 0);
  if (uncited.length === 0) return [...plan];
  const cited = await knowledge.citeFindings(uncited.map(asFinding), signal);
  const byPriority = new Map(uncited.map((r, i) => [r.priority, cited[i]!.citations]));
  return plan.map((r) => (byPriority.has(r.priority) ? { ...r, citations: byPriority.get(r.priority)! } : r));
}
