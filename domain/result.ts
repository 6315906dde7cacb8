import { z } from "zod";

/** The agents of the graph; the names are part of the response contract (ARCHITECTURE.md). */
export const AGENT_NAMES = {
  dataset: "DatasetArtifactsAnalyzer",
  checks: "ChecksArtifactsAnalyzer",
  training: "TrainingArtifactsAnalyzer",
  checkpoint: "ModelCheckpointArtifactsAnalyzer",
  integrate: "CrossArtifactReasoningAgent",
  advise: "OptimizationAdvisorAgent",
} as const;
export type AgentName = (typeof AGENT_NAMES)[keyof typeof AGENT_NAMES];

/** Severity bands of DETECTORS.md §2.0, most severe first. */
export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const SeveritySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof SeveritySchema>;

/** Where a finding came from: a deterministic detector or the language model. */
export const FindingSourceSchema = z.enum(["detector", "llm"]);

const EvidenceValueSchema = z.union([z.number(), z.string(), z.boolean(), z.null()]);

/** The numbers a finding rests on (DETECTORS.md §2.0 evidence object), plus a sentence a person can read. */
export const EvidenceSchema = z.object({
  /** Catalog rule, e.g. "TH-13". */
  rule_id: z.string(),
  /** Which artifact and field, e.g. "training_artifacts.metrics:val/loss". */
  artifact: z.string(),
  /** One sentence with the numbers. */
  text: z.string(),
  /** [start, end] in steps or epochs, when the evidence is a stretch of a curve. */
  window: z.tuple([z.number(), z.number()]).nullable().optional(),
  observed: EvidenceValueSchema.optional(),
  threshold: EvidenceValueSchema.optional(),
  noise_estimate: z.number().nullable().optional(),
  n_points: z.number().int().nullable().optional(),
  /** Further named numbers (best epoch, gap, counts…). */
  values: z.record(z.string(), EvidenceValueSchema).optional(),
  /** Training findings: the logged step at which this evidence became conclusive (null when only logs show it). */
  detected_at_step: z.number().nullable().optional(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

/** Where a recommendation acts; the advisor groups by it. */
export const RecommendationCategorySchema = z.enum(["data", "training", "model", "infrastructure"]);
export type RecommendationCategory = z.infer<typeof RecommendationCategorySchema>;

/** Relative effort of acting on a recommendation; the advisor orders by impact, then effort. */
export const EffortSchema = z.enum(["low", "medium", "high"]);

export const RecommendationSchema = z.object({
  action: z.string(),
  rationale: z.string(),
  confidence: z.number().min(0).max(1),
  category: RecommendationCategorySchema,
  effort: EffortSchema,
  /** Ids of the findings this recommendation addresses. */
  finding_ids: z.array(z.string()),
  citations: z.array(z.string()),
  source: FindingSourceSchema,
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

/** A finding's own recommendation, before the advisor merges them. */
export const FindingRecommendationSchema = RecommendationSchema.pick({
  action: true,
  rationale: true,
  category: true,
  effort: true,
});
export type FindingRecommendation = z.infer<typeof FindingRecommendationSchema>;

export const FindingSchema = z.object({
  /** Stable id, `<kind>.<name>`, e.g. "training.overfitting". */
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** One or more pieces of evidence; merged duplicates keep all of theirs. */
  evidence: z.array(EvidenceSchema),
  severity: SeveritySchema,
  confidence: z.number().min(0).max(1),
  source: FindingSourceSchema,
  citations: z.array(z.string()),
  recommendation: FindingRecommendationSchema.nullable(),
  /** Why the LLM raised or lowered the detector's confidence, when it did. */
  confidence_note: z.string().nullable().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

/** Legacy pair of the original Python implementation (severity only high|medium|low). */
export const LegacyAnalysisPairSchema = z.object({
  findings: z.object({
    description: z.string(),
    evidence: z.string(),
    severity: z.enum(["high", "medium", "low"]),
    confidence: z.number(),
  }),
  recommendations: z.object({ action: z.string(), rationale: z.string(), confidence: z.number() }),
});
export type LegacyAnalysisPair = z.infer<typeof LegacyAnalysisPairSchema>;

export const AgentResultSchema = z.object({
  agent_name: z.string(),
  findings: z.array(FindingSchema),
  recommendations: z.array(RecommendationSchema),
  /** The most severe finding's severity; "info" when there is none. */
  severity: SeveritySchema,
  /** Confidence of the most severe findings; 0 when nothing was found. */
  confidence: z.number().min(0).max(1),
  analyzed_artifacts: z.array(z.string()),
  error_message: z.string().nullable(),
  analysis: z.array(LegacyAnalysisPairSchema),
  /** Free-form agent output (summary for the reasoning agent, digests, advice). */
  summary: z.string().nullable().optional(),
});
export type AgentResult = z.infer<typeof AgentResultSchema>;

/** 0 for critical … 4 for info, so that sorting ascending puts the worst first. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** Orders findings by severity, then confidence, then id (so ties never depend on arrival order). */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    b.confidence - a.confidence ||
    a.id.localeCompare(b.id)
  );
}

/** The response body of spec §2.2, as the OpenAPI document publishes it and the `ml-diagnose` client reads it. */
export const AnalysisResponseSchema = z.object({
  agent_results: z.record(z.string(), AgentResultSchema),
  summary: z.string().nullable(),
  additional_outputs: z.record(z.string(), z.unknown()),
  error_messages: z.record(z.string(), z.string()),
  dataset_name: z.string().nullable(),
});
export type AnalysisResponseBody = z.infer<typeof AnalysisResponseSchema>;

/**
 * The parts of the POST /v1/compare response a client reads, validated (`ml-diagnose compare`); other fields pass
 * through untouched.
 */
export const CompareResponseSchema = z.looseObject({
  dataset_name: z.string().nullable(),
  objective: z.looseObject({ metric: z.string(), direction: z.enum(["minimize", "maximize"]), inferred: z.boolean() }).nullable(),
  runs: z.array(
    z.looseObject({
      name: z.string(),
      status: z.enum(["ok", "failed"]),
      failure: z.string().nullable(),
      objective: z.looseObject({ best: z.number().nullable(), final: z.number().nullable() }).nullable(),
      findings_count: z.number().int(),
      top_findings: z.array(z.looseObject({ id: z.string(), title: z.string(), severity: SeveritySchema })).default([]),
    }),
  ),
  findings: z.array(FindingSchema),
  summary: z.string(),
  recommendations: z.array(RecommendationSchema),
  citations: z.array(z.looseObject({ id: z.string(), title: z.string(), url: z.string(), source: z.string() })),
  baseline_comparison: z
    .looseObject({
      baseline: z.string(),
      regression: z.boolean(),
      candidates: z.array(z.looseObject({ runs: z.array(z.string()), regression: z.boolean(), reasons: z.array(z.string()) })),
    })
    .nullable(),
  error_messages: z.record(z.string(), z.string()),
});
export type CompareResponseBody = z.infer<typeof CompareResponseSchema>;

/**
 * A run's own finding that a comparison shows in every format: high or worse, or a run still improving at its last
 * evaluation (its score understates its configuration, so the ranking may not hold).
 */
export function shownPerRun(f: { id: string; severity: Severity }): boolean {
  return severityRank(f.severity) <= severityRank("high") || f.id === "training.still_improving";
}
