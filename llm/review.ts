import { type ArtifactKind, REQUEST_FIELD_BY_KIND } from "../artifacts/context.js";
import type { Finding, FindingRecommendation, RecommendationCategory } from "../domain/result.js";
import { MAX_CONFIDENCE } from "../nodes/findings.js";
import type { AgentReviewOutput } from "./schemas.js";

/** How far the model may move a detector's confidence, either way. */
export const MAX_CONFIDENCE_SHIFT = 0.2;
/** The model's own findings rest on a digest, not on a tested rule: they never claim more than this. */
export const MAX_LLM_CONFIDENCE = 0.8;
/** At most this many findings of the model's own per agent. */
export const MAX_NEW_FINDINGS = 5;

const TEXT_LIMIT = { title: 160, text: 1500, note: 400 } as const;

const CATEGORY_BY_KIND: Record<ArtifactKind, RecommendationCategory> = {
  dataset: "data",
  checks: "data",
  training: "training",
  checkpoint: "model",
};

/** Trimmed, length-capped text, or null when the model left it empty. */
function text(value: string | null | undefined, max: number): string | null {
  const t = value?.trim();
  if (!t) return null;
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round2 = (x: number) => Math.round(x * 100) / 100;

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 48) || "observation"
  );
}

/** A detector finding with the model's wording; id, evidence, severity, source and citations stay. */
function refine(f: Finding, r: AgentReviewOutput["findings"][number] | undefined, kind: ArtifactKind): Finding {
  if (!r) return f;
  const action = text(r.recommendation_action, TEXT_LIMIT.text);
  const rationale = text(r.recommendation_rationale, TEXT_LIMIT.text);
  let recommendation: FindingRecommendation | null = f.recommendation;
  if (recommendation && (action || rationale)) {
    recommendation = { ...recommendation, action: action ?? recommendation.action, rationale: rationale ?? recommendation.rationale };
  } else if (!recommendation && action) {
    recommendation = { action, rationale: rationale ?? "", category: CATEGORY_BY_KIND[kind], effort: "medium" };
  }
  const note = text(r.confidence_note, TEXT_LIMIT.note);
  // A confidence change without a reason is ignored; with one it moves at most MAX_CONFIDENCE_SHIFT.
  const shifted =
    r.confidence !== null && Number.isFinite(r.confidence) && note
      ? round2(clamp(r.confidence, Math.max(0.05, f.confidence - MAX_CONFIDENCE_SHIFT), Math.min(MAX_CONFIDENCE, f.confidence + MAX_CONFIDENCE_SHIFT)))
      : f.confidence;
  return {
    ...f,
    title: text(r.title, TEXT_LIMIT.title) ?? f.title,
    description: text(r.description, TEXT_LIMIT.text) ?? f.description,
    recommendation,
    confidence: shifted,
    ...(shifted !== f.confidence && { confidence_note: note }),
  };
}

/** How far below the least confident detector finding the model's own findings stay. */
export const LLM_CONFIDENCE_MARGIN = 0.05;

/**
 * The confidence ceiling of the model's own findings: MAX_LLM_CONFIDENCE, and below every detector finding of
 * the agent, so a model finding never outranks a detector finding of the same severity.
 */
export function llmConfidenceCeiling(detected: readonly Finding[]): number {
  const lowest = Math.min(...detected.map((f) => f.confidence));
  return Math.max(0.05, Math.min(MAX_LLM_CONFIDENCE, lowest - LLM_CONFIDENCE_MARGIN));
}

/** The model's own findings: namespaced ids (`<kind>.llm.<name>`), capped confidence, its evidence sentence. */
function newFindings(items: AgentReviewOutput["new_findings"], kind: ArtifactKind, taken: Set<string>, ceiling: number): Finding[] {
  const out: Finding[] = [];
  for (const n of items) {
    if (out.length === MAX_NEW_FINDINGS) break;
    const title = text(n.title, TEXT_LIMIT.title);
    const description = text(n.description, TEXT_LIMIT.text);
    if (!title || !description) continue;
    let id = `${kind}.llm.${slug(n.name)}`;
    for (let k = 2; taken.has(id); k++) id = `${kind}.llm.${slug(n.name)}_${k}`;
    taken.add(id);
    const rec = n.recommendation;
    const action = text(rec?.action, TEXT_LIMIT.text);
    out.push({
      id,
      title,
      description,
      evidence: [{ rule_id: "LLM", artifact: REQUEST_FIELD_BY_KIND[kind], text: text(n.evidence, TEXT_LIMIT.text) ?? description }],
      severity: n.severity,
      confidence: round2(clamp(Number.isFinite(n.confidence) ? n.confidence : 0.5, 0.05, ceiling)),
      source: "llm",
      citations: [],
      recommendation:
        rec && action ? { action, rationale: text(rec.rationale, TEXT_LIMIT.text) ?? "", category: rec.category, effort: rec.effort } : null,
    });
  }
  return out;
}

/**
 * Applies a review to an agent's detector findings: each keeps its id, evidence, severity and citations and may
 * take the model's wording and a bounded confidence change with its reason; the model's own findings follow,
 * marked `source: "llm"`, less confident than any detector finding. Every detector finding is in the result,
 * reviewed or not. The review has been through the grounding pass (llm/grounding).
 */
export function applyReview(detected: readonly Finding[], review: AgentReviewOutput, kind: ArtifactKind): Finding[] {
  const byId = new Map(review.findings.map((r) => [r.id, r]));
  const refined = detected.map((f) => refine(f, byId.get(f.id), kind));
  return [...refined, ...newFindings(review.new_findings, kind, new Set(detected.map((f) => f.id)), llmConfidenceCeiling(detected))];
}
