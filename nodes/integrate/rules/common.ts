import type { Evidence, Finding, FindingRecommendation, Severity } from "../../../domain/result.js";
import { detectorFinding, MAX_CONFIDENCE } from "../../findings.js";

export interface CrossFindingInput {
  name: string;
  rule: string;
  title: string;
  description: string;
  severity: Severity;
  /** The findings this one rests on; their evidence is carried over under the cross rule's id. */
  basedOn: ReadonlyArray<Finding | undefined>;
  /** Extra evidence from facts (numbers the rule compared). */
  evidence?: Array<Omit<Evidence, "rule_id">>;
  /** Confidence when no finding is corroborated (facts only). */
  baseConfidence?: number;
  recommendation: FindingRecommendation;
}

/**
 * A cross-artifact finding: id `cross.<name>`, the evidence of every finding it combines, and a confidence
 * raised ×1.2 over the strongest input because independent artifacts agree (DETECTORS.md §2.0), capped at 0.95.
 */
export function crossFinding(input: CrossFindingInput): Finding {
  const inputs = input.basedOn.filter((f): f is Finding => f !== undefined);
  const strongest = Math.max(input.baseConfidence ?? 0, ...inputs.map((f) => f.confidence));
  // The rule's own comparison first (summaries quote the first evidence), then what it combined.
  const evidence: Evidence[] = [
    ...(input.evidence ?? []).map((e) => ({ ...e, rule_id: input.rule })),
    ...inputs.flatMap((f) => f.evidence.slice(0, 2).map((e) => ({ ...e, rule_id: `${input.rule}<${e.rule_id}` }))),
  ];
  return detectorFinding({
    id: `cross.${input.name}`,
    title: input.title,
    description: input.description,
    evidence,
    severity: input.severity,
    confidence: Math.min(MAX_CONFIDENCE, strongest * (inputs.length > 1 ? 1.2 : 1)),
    recommendation: input.recommendation,
  });
}

export const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)} %`;
