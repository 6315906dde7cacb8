import { z } from "zod";
import { AnalysisRequestSchema } from "../artifacts/request.js";
import { AgentResultSchema } from "../graph/result.js";

const ErrorBodySchema = z.object({
  detail: z.string().describe("What was wrong and where (field path for 400s)."),
  code: z.string(),
  request_id: z.string(),
});

const AnalysisResponseSchema = z.object({
  agent_results: z.record(z.string(), AgentResultSchema),
  summary: z.string().nullable(),
  additional_outputs: z.record(z.string(), z.unknown()),
  error_messages: z.record(z.string(), z.string()),
  dataset_name: z.string().nullable(),
});

const json = (schema: z.ZodType) => ({ "application/json": { schema: z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) } });
const error = (description: string) => ({ description, content: json(ErrorBodySchema) });

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and shape responses. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const analyse = {
    summary: "Analyze a training run's artifacts",
    requestBody: { required: true, content: json(AnalysisRequestSchema) },
    responses: {
      200: { description: "Findings per agent, summary, recommendations and citations", content: json(AnalysisResponseSchema) },
      400: error("The request could not be decoded (detail starts with 'Error decoding request:')"),
      404: error("A referenced run, experiment, dataset or artifact is not on the tracking server"),
      413: error("The body is larger than SERVICE_MAX_BODY_BYTES"),
      500: error("The analysis failed (or, with strict: true, an agent failed)"),
      503: error("Too many analyses in flight, shutting down, or the tracking server is unreachable"),
      504: error("The analysis exceeded SERVICE_REQUEST_TIMEOUT_MS"),
    },
  };
  return {
    openapi: "3.1.0",
    info: { title: "ML experiment diagnosis service", version: "1.0.0" },
    paths: {
      "/v1/analyse": { post: { ...analyse, operationId: "analyse" } },
      "/v1/analyze": { post: { ...analyse, operationId: "analyze", description: "Alias of /v1/analyse." } },
      "/healthz": { get: { summary: "Liveness", responses: { 200: { description: "The process answers" } } } },
      "/readyz": { get: { summary: "Readiness and LLM mode", responses: { 200: { description: "Ready" }, 503: { description: "Draining" } } } },
      "/metrics": { get: { summary: "Prometheus text metrics", responses: { 200: { description: "Counters and gauges" } } } },
    },
  };
}
