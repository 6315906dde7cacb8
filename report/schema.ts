import { z } from "zod";
import { AgentResultSchema, RecommendationSchema } from "../domain/result.js";
import { GroundingReportSchema } from "../domain/grounding.js";
import { SpanSchema } from "../domain/trace.js";
import { CurvesSchema } from "./curves.js";

/** A cited document as additional_outputs.citations lists it (knowledge/port.ts Citation). */
export const CitationSchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  source: z.string().nullish(),
  snippet: z.string().nullish(),
});
export type ReportCitation = z.infer<typeof CitationSchema>;

/** A recommendation of the advisor's plan: the agent recommendation plus its rank. */
export const PlannedRecommendationSchema = RecommendationSchema.extend({ priority: z.number().int().nullish() });
export type PlannedRecommendation = z.infer<typeof PlannedRecommendationSchema>;

/** An analysis response (spec §2.2) as the report reads it. */
export const ReportInputSchema = z.object({
  agent_results: z.record(z.string(), AgentResultSchema),
  summary: z.string().nullable(),
  additional_outputs: z.record(z.string(), z.unknown()),
  error_messages: z.record(z.string(), z.string()),
  dataset_name: z.string().nullable(),
});
export type ReportInput = z.infer<typeof ReportInputSchema>;

/** The additional outputs the report shows, each read on its own so one malformed output does not hide the rest. */
export const REPORT_OUTPUTS = {
  recommendations: z.array(PlannedRecommendationSchema),
  citations: z.array(CitationSchema),
  curves: CurvesSchema,
  trace: z.object({ spans: z.array(SpanSchema) }),
  grounding: z.record(z.string(), GroundingReportSchema),
} as const;
