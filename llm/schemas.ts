import { z } from "zod";
import { EffortSchema, RecommendationCategorySchema } from "../domain/result.js";

// These schemas go to the model as OpenAI strict JSON schema (response_format json_schema, strict: true): every
// property is required, so optional values are `.nullable()`, never `.optional()`, and nothing has a default.
// Number ranges are not declared (not every strict endpoint accepts minimum/maximum); the code clamps them.

/** A detector finding as the model rewrites it; the id ties it to the detector's evidence. */
export const ReviewedFindingSchema = z.object({
  id: z.string().describe("Id of a detector finding from the input, unchanged"),
  title: z.string().describe("Short title in the requested language"),
  description: z.string().describe("What the evidence shows and why it matters, with its numbers, in the requested language"),
  recommendation_action: z.string().nullable().describe("The recommended action in the requested language, or null to keep the detector's"),
  recommendation_rationale: z.string().nullable().describe("Why the action helps, in the requested language, or null"),
  confidence: z.number().nullable().describe("A new confidence between 0 and 1, or null to keep the detector's"),
  confidence_note: z.string().nullable().describe("Why the confidence changed; required when confidence is not null"),
});

/** A problem the digest shows that no detector reported. */
export const NewFindingSchema = z.object({
  name: z.string().describe("Short snake_case name of the problem"),
  title: z.string().describe("Short title in the requested language"),
  description: z.string().describe("What the digest shows, in the requested language"),
  evidence: z.string().describe("The numbers from the digest this rests on"),
  severity: z.enum(["high", "medium", "low", "info"]),
  confidence: z.number().describe("Between 0 and 1"),
  recommendation: z
    .object({
      action: z.string(),
      rationale: z.string(),
      category: RecommendationCategorySchema,
      effort: EffortSchema,
    })
    .nullable(),
});

/** What an analyzer agent's review returns. */
export const AgentReviewSchema = z.object({
  summary: z.string().describe("Two to four sentences on this artifact for an ML engineer, in the requested language"),
  findings: z.array(ReviewedFindingSchema).describe("One entry per detector finding you rewrite"),
  new_findings: z.array(NewFindingSchema).describe("Problems the digest shows that no detector reported; empty when none"),
});
export type AgentReviewOutput = z.infer<typeof AgentReviewSchema>;

/** What the cross-artifact reasoning agent returns. */
export const CrossSummarySchema = z.object({
  summary: z.string().describe("The cross-artifact summary in the requested language"),
});
export type CrossSummaryOutput = z.infer<typeof CrossSummarySchema>;

/** What the optimization advisor returns. */
export const AdviceSchema = z.object({
  advice: z.string().describe("The optimization advice in the requested language, most valuable steps first"),
  recommendations: z
    .array(
      z.object({
        priority: z.number().describe("The priority number of a recommendation from the input"),
        action: z.string().describe("The action reworded in the requested language"),
        rationale: z.string().describe("The rationale reworded in the requested language"),
      }),
    )
    .describe("Rewordings of input recommendations, by priority"),
});
export type AdviceOutput = z.infer<typeof AdviceSchema>;

/** Schema names as they appear in the request's response_format (and the fake server's scripts). */
export const SCHEMA_NAMES = {
  review: "agent_review",
  summary: "cross_artifact_summary",
  advice: "optimization_advice",
} as const;
