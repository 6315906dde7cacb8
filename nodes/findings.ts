import {
  compareFindings,
  type Evidence,
  type Finding,
  type FindingRecommendation,
  type LegacyAnalysisPair,
  type Severity,
  severityRank,
} from "../domain/result.js";

/** What a detector states; the rest of a finding (source, citations) is filled in here. */
export interface DetectedFinding {
  id: string;
  title: string;
  description: string;
  evidence: Evidence[];
  severity: Severity;
  confidence: number;
  recommendation: FindingRecommendation | null;
}

/** A finding made by a deterministic detector, with no citations yet (the knowledge step adds them). */
export function detectorFinding(f: DetectedFinding): Finding {
  return { ...f, confidence: roundConfidence(f.confidence), source: "detector", citations: [] };
}

/** Confidence ceiling for anything inferred from curves alone (DETECTORS.md §2.0: never 1.0). */
export const MAX_CONFIDENCE = 0.95;

export interface ConfidenceInput {
  /** Effect divided by its noise estimate (a z-score), or any strength ≥ 0 measured in threshold units. */
  strength: number;
  /** The strength at which the rule fires. */
  threshold: number;
  /** Number of points the rule saw; few points lower the confidence. */
  points?: number;
  /** A benign explanation is plausible and not ruled out (×0.8). */
  benignPossible?: boolean;
  /** Independent artifacts that corroborate (×1.2 each). */
  corroborations?: number;
}

/**
 * Confidence from the strength of the evidence (DETECTORS.md §2.0): 0.55 at the threshold, rising towards 0.9
 * as the effect grows, lowered for few points or a plausible benign cause, raised per corroborating artifact,
 * capped at 0.95.
 */
export function scoreConfidence(input: ConfidenceInput): number {
  const ratio = input.threshold > 0 ? input.strength / input.threshold : input.strength;
  let c = 0.55 + 0.35 * Math.tanh(Math.max(0, ratio - 1));
  if (input.points !== undefined && input.points < 10) c *= 0.85;
  if (input.benignPossible) c *= 0.8;
  c *= 1.2 ** (input.corroborations ?? 0);
  return roundConfidence(Math.min(MAX_CONFIDENCE, Math.max(0.05, c)));
}

function roundConfidence(c: number): number {
  return Math.round(Math.min(1, Math.max(0, c)) * 100) / 100;
}

/**
 * Merges findings that share an id (one finding, the evidence of all) keeping the worst severity and the
 * highest confidence, then orders by severity, then confidence.
 */
export function prioritizeFindings(findings: readonly Finding[]): Finding[] {
  const byId = new Map<string, Finding>();
  for (const f of findings) {
    const seen = byId.get(f.id);
    if (!seen) {
      byId.set(f.id, { ...f, evidence: [...f.evidence], citations: [...f.citations] });
      continue;
    }
    const worse = severityRank(f.severity) < severityRank(seen.severity) ? f : seen;
    byId.set(f.id, {
      ...worse,
      confidence: Math.max(seen.confidence, f.confidence),
      evidence: [...seen.evidence, ...f.evidence],
      citations: [...new Set([...seen.citations, ...f.citations])],
      recommendation: worse.recommendation ?? seen.recommendation ?? f.recommendation,
    });
  }
  return [...byId.values()].sort(compareFindings);
}

/** Overall severity and confidence of an agent: those of its most severe findings. */
export function overallAssessment(findings: readonly Finding[]): { severity: Severity; confidence: number } {
  const sorted = [...findings].sort(compareFindings);
  const top = sorted[0];
  if (!top) return { severity: "info", confidence: 0 };
  const peers = sorted.filter((f) => f.severity === top.severity);
  return { severity: top.severity, confidence: Math.max(...peers.map((f) => f.confidence)) };
}

const LEGACY_SEVERITY: Record<Severity, "high" | "medium" | "low"> = {
  critical: "high",
  high: "high",
  medium: "medium",
  low: "low",
  info: "low",
};

/** The original Python client's `analysis` pairs: one per finding, with its recommendation. */
export function toLegacyAnalysis(findings: readonly Finding[]): LegacyAnalysisPair[] {
  return findings.map((f) => ({
    findings: {
      description: f.description,
      evidence: f.evidence.map((e) => e.text).join(" "),
      severity: LEGACY_SEVERITY[f.severity],
      confidence: f.confidence,
    },
    recommendations: {
      action: f.recommendation?.action ?? "No action needed.",
      rationale: f.recommendation?.rationale ?? f.description,
      confidence: f.confidence,
    },
  }));
}
