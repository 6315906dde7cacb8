import { z } from "zod";
import { GroundingReportSchema } from "./grounding.js";

/** How a node's run ended. */
export const SpanOutcomeSchema = z.enum(["ok", "error", "timeout", "aborted"]);

/** One node run: when it started (ms after the analysis began), how long it took, and how it ended. */
export const SpanSchema = z.object({
  node: z.string(),
  /** LangGraph superstep; the analyzers of one request share a step. */
  step: z.number().int(),
  start_ms: z.number(),
  duration_ms: z.number(),
  outcome: SpanOutcomeSchema,
  /** Findings the node's agents reported; null when the node reports none (route) or failed outright. */
  findings: z.number().int().nullable(),
  /** The node's error, or the error its agent recorded in error_messages. */
  error: z.string().nullable(),
  /** What the grounding pass removed from the node's model answer (counts and reasons, never the text). */
  grounding: GroundingReportSchema.pick({ checked: true, grounded: true, removed: true, reasons: true }).optional(),
});
export type Span = z.infer<typeof SpanSchema>;

/** The node of a span as the run announces it, before it has an end. */
export type SpanStart = Pick<Span, "node" | "step" | "start_ms">;
