import type { FactsByKind } from "../../graph/facts.js";
import type { AgentResult, Finding } from "../../domain/result.js";
import { coveredIds } from "../root-causes.js";

/** What a cross-artifact rule sees: every analyzer's findings and facts. */
export interface CrossEvidence {
  findings: readonly Finding[];
  facts: FactsByKind;
  /** The first finding with this id, from any analyzer (or the grouped finding that holds it). */
  get(id: string): Finding | undefined;
  has(...ids: string[]): boolean;
}

export function collectCrossEvidence(agentResults: Record<string, AgentResult>, facts: FactsByKind): CrossEvidence {
  const findings = Object.values(agentResults).flatMap((r) => r.findings);
  const byId = new Map<string, Finding>();
  // A finding merged into another by root-cause grouping is reached through the finding that holds it.
  for (const f of findings) if (!byId.has(f.id)) byId.set(f.id, f);
  for (const f of findings) for (const id of coveredIds(f)) if (!byId.has(id)) byId.set(id, f);
  return {
    findings,
    facts,
    get: (id) => byId.get(id),
    has: (...ids) => ids.some((id) => byId.has(id)),
  };
}

/** A cross-artifact rule: pure, from all analyzers' evidence to findings of its own. */
export type CrossRule = (evidence: CrossEvidence) => Finding[];
