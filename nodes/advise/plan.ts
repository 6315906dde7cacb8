import type { AgentResult, Finding, Recommendation, Severity } from "../../domain/result.js";
import { actionWords, overlap, themeOf } from "./themes.js";

const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 1, high: 0.75, medium: 0.5, low: 0.25, info: 0.1 };
const EFFORT_RANK = { low: 0, medium: 1, high: 2 } as const;
/** Two wordings with no shared theme are the same advice when this share of their content words match. */
const SAME_WORDING = 0.6;

/** A recommendation of the plan: merged across agents, with the impact it was ordered by. */
export interface PlannedRecommendation extends Recommendation {
  /** Σ severity weight × confidence of the findings it addresses (at most 1 per finding). */
  impact: number;
  /** 1 = do first. */
  priority: number;
  /** The standard remedy it names (themes.ts), or null. */
  theme: string | null;
  /** The agents that recommended it. */
  agents: string[];
  /** Other wordings of the same advice that were merged into this one. */
  merged_actions: string[];
}

interface Candidate {
  rec: Recommendation;
  agent: string;
  impact: number;
  theme: string | null;
  words: Set<string>;
  /** The action normalized once: candidates are compared with every group. */
  normalizedAction: string;
}

/** Every finding of every agent by id (the first agent to report an id wins; ids are stable across agents). */
function findingsById(agentResults: Record<string, AgentResult>): Map<string, Finding> {
  const findings = new Map<string, Finding>();
  for (const r of Object.values(agentResults)) for (const f of r.findings) if (!findings.has(f.id)) findings.set(f.id, f);
  return findings;
}

function impactOf(findingIds: readonly string[], findings: ReadonlyMap<string, Finding>): number {
  const sum = findingIds.reduce((s, id) => {
    const f = findings.get(id);
    return s + (f ? SEVERITY_WEIGHT[f.severity] * f.confidence : 0);
  }, 0);
  return Math.round(sum * 1000) / 1000;
}

const normalized = (action: string) => action.toLowerCase().replace(/[^a-z0-9 ]+/g, " ").replace(/\s+/g, " ").trim();

function sameAdvice(a: Candidate, b: Candidate): boolean {
  if (a.normalizedAction === b.normalizedAction) return true;
  if (a.theme !== null || b.theme !== null) return a.theme === b.theme;
  return overlap(a.words, b.words) >= SAME_WORDING;
}

/** Folds the members of one group (most impactful first) into one recommendation led by the first. */
function mergeGroup(group: readonly Candidate[]): Omit<PlannedRecommendation, "impact" | "priority"> {
  const lead = group[0]!;
  const unique = <T>(xs: T[]) => [...new Set(xs)];
  return {
    ...lead.rec,
    confidence: Math.max(...group.map((c) => c.rec.confidence)),
    finding_ids: unique(group.flatMap((c) => c.rec.finding_ids)),
    citations: unique(group.flatMap((c) => c.rec.citations)),
    source: group.some((c) => c.rec.source === "detector") ? "detector" : "llm",
    theme: lead.theme,
    agents: unique(group.map((c) => c.agent)),
    merged_actions: unique(group.slice(1).filter((c) => c.normalizedAction !== lead.normalizedAction).map((c) => c.rec.action)),
  };
}

/** Higher impact first, then less effort, then by action text; impacts apart so no object is built to compare. */
const byImpactThenEffort = (aImpact: number, a: Recommendation, bImpact: number, b: Recommendation) =>
  bImpact - aImpact || EFFORT_RANK[a.effort] - EFFORT_RANK[b.effort] || a.action.localeCompare(b.action);

/**
 * Merges the recommendations of every agent into one plan: the same advice from several agents (same action,
 * same standard remedy, or nearly the same words) becomes one recommendation addressing all their findings,
 * with all their citations; the plan is ordered by expected impact, then effort, then action text.
 */
export function planRecommendations(agentResults: Record<string, AgentResult>): PlannedRecommendation[] {
  const findings = findingsById(agentResults);
  const candidates: Candidate[] = Object.entries(agentResults)
    .flatMap(([agent, r]) =>
      r.recommendations.map((rec) => ({
        rec,
        agent,
        impact: impactOf(rec.finding_ids, findings),
        theme: themeOf(rec.action),
        words: actionWords(rec.action),
        normalizedAction: normalized(rec.action),
      })),
    )
    .sort((a, b) => byImpactThenEffort(a.impact, a.rec, b.impact, b.rec) || a.agent.localeCompare(b.agent));

  const groups: Candidate[][] = [];
  for (const c of candidates) {
    const home = groups.find((g) => sameAdvice(g[0]!, c));
    if (home) home.push(c);
    else groups.push([c]);
  }
  const plan: PlannedRecommendation[] = groups.map(mergeGroup).map((rec) => ({ ...rec, impact: impactOf(rec.finding_ids, findings), priority: 0 }));
  plan.sort((a, b) => byImpactThenEffort(a.impact, a, b.impact, b));
  // Numbered in place: each is a fresh object of this call, and its keys keep their order.
  plan.forEach((rec, i) => (rec.priority = i + 1));
  return plan;
}

/** Ids of every cited document in order of first use: findings first (by priority), then recommendations. */
export function citationOrder(findings: readonly Finding[], plan: readonly Recommendation[]): string[] {
  return [...new Set([...findings.flatMap((f) => f.citations), ...plan.flatMap((r) => r.citations)])];
}
