import type { AgentResult, Finding, Recommendation, Severity } from "../../graph/result.js";

const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 1, high: 0.75, medium: 0.5, low: 0.25, info: 0.1 };
const EFFORT_RANK = { low: 0, medium: 1, high: 2 } as const;

/** A recommendation of the plan, with the impact it was ordered by. */
export interface PlannedRecommendation extends Recommendation {
  /** Σ severity weight × confidence of the findings it addresses (capped at 1 per finding). */
  impact: number;
  priority: number;
}

const normalizeAction = (action: string) => action.toLowerCase().replace(/[^a-z0-9 ]+/g, " ").replace(/\s+/g, " ").trim();

/**
 * Merges the recommendations of every agent into one plan: identical actions merged (their findings and
 * citations united), ordered by expected impact, then effort, then action text.
 */
export function planRecommendations(agentResults: Record<string, AgentResult>): PlannedRecommendation[] {
  const findings = new Map<string, Finding>();
  for (const r of Object.values(agentResults)) for (const f of r.findings) if (!findings.has(f.id)) findings.set(f.id, f);

  const merged = new Map<string, Recommendation>();
  for (const r of Object.values(agentResults)) {
    for (const rec of r.recommendations) {
      const key = normalizeAction(rec.action);
      const seen = merged.get(key);
      merged.set(
        key,
        seen
          ? {
              ...seen,
              confidence: Math.max(seen.confidence, rec.confidence),
              finding_ids: [...new Set([...seen.finding_ids, ...rec.finding_ids])],
              citations: [...new Set([...seen.citations, ...rec.citations])],
            }
          : { ...rec, finding_ids: [...rec.finding_ids], citations: [...rec.citations] },
      );
    }
  }
  const impactOf = (rec: Recommendation) =>
    rec.finding_ids.reduce((sum, id) => {
      const f = findings.get(id);
      return sum + (f ? SEVERITY_WEIGHT[f.severity] * f.confidence : 0);
    }, 0);
  return [...merged.values()]
    .map((rec) => ({ ...rec, impact: Math.round(impactOf(rec) * 1000) / 1000, priority: 0 }))
    .sort((a, b) => b.impact - a.impact || EFFORT_RANK[a.effort] - EFFORT_RANK[b.effort] || a.action.localeCompare(b.action))
    .map((rec, i) => ({ ...rec, priority: i + 1 }));
}

/** Ids of every cited document in order of first use: findings first (by priority), then recommendations. */
export function citationOrder(findings: readonly Finding[], plan: readonly Recommendation[]): string[] {
  return [...new Set([...findings.flatMap((f) => f.citations), ...plan.flatMap((r) => r.citations)])];
}
