import { z } from "zod";
import { CompareRequestSchema } from "../artifacts/compare-request.js";
import { AnalysisRequestSchema } from "../artifacts/request.js";
import { AnalysisResponseSchema } from "../domain/result.js";
import { JobViewSchema } from "../jobs/job.js";
import { KnowledgeQueryParamsSchema } from "./routes/knowledge.js";

const ErrorBodySchema = z.object({
  detail: z.string().describe("What was wrong and where (field path for 400s)."),
  code: z.string(),
  request_id: z.string(),
});

/** OpenAPI query parameters from a zod object schema: each property, required as the schema says. */
function queryParameters(schema: z.ZodObject): Array<Record<string, unknown>> {
  const doc = z.toJSONSchema(schema, { io: "input" }) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(doc.properties).map(([name, property]) => ({
    name,
    in: "query",
    required: doc.required?.includes(name) ?? false,
    schema: property,
  }));
}

/**
 * A tuple of one item type (an evidence window [start, end]) as `items` with a fixed length rather than
 * `prefixItems` and `items: false`: both are valid OpenAPI 3.1, but schemathesis 4 reports the second as an invalid
 * schema object and skips the operation's response checks.
 */
function uniformTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(uniformTuples);
  if (node === null || typeof node !== "object") return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, uniformTuples(v)]));
  const prefix = out.prefixItems as unknown[] | undefined;
  if (prefix && out.items === false && prefix.every((item) => JSON.stringify(item) === JSON.stringify(prefix[0]))) {
    const { prefixItems: _, ...rest } = out;
    return { ...rest, items: prefix[0] };
  }
  return out;
}

const json = (schema: z.ZodType) => ({
  "application/json": { schema: uniformTuples(z.toJSONSchema(schema, { unrepresentable: "any", io: "input" })) as Record<string, unknown> },
});
const error = (description: string) => ({ description, content: json(ErrorBodySchema) });

/** What the deployment serves that changes what a request may hold. */
export interface OpenApiDeployment {
  /** SERVICE_MLFLOW_TRACKING_URI is set: a request may name a run (without it, `mlflow` is a 400). */
  trackingServer: boolean;
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and shape responses, for
 * this deployment: what it would refuse whatever the values (a run reference without a tracking server) is not
 * offered.
 */
export function buildOpenApiDocument(deployment: OpenApiDeployment): Record<string, unknown> {
  const responses = {
    400: error("The request could not be decoded (detail starts with 'Error decoding request:')"),
    404: error("A referenced run, experiment, dataset or artifact is not on the tracking server"),
    405: error("The path answers other methods, listed in Allow"),
    408: error("The body was not received within SERVICE_BODY_TIMEOUT_MS"),
    413: error("The body is larger than SERVICE_MAX_BODY_BYTES, or pulled artifacts exceed SERVICE_MAX_DOWNLOAD_BYTES / SERVICE_MAX_DOWNLOAD_FILE_BYTES"),
    415: error("The Content-Type is not application/json (UTF-8), or the body is compressed"),
    429: error("This client already has SERVICE_MAX_CONCURRENT_PER_CLIENT requests open (Retry-After)"),
    500: error("The analysis failed (or, with strict: true, an agent failed)"),
    502: error("The tracking server answered with an error or a malformed body (e.g. bad credentials)"),
    503: error("Too many analyses in flight, shutting down, or the tracking server is unreachable"),
    504: error("The analysis exceeded SERVICE_REQUEST_TIMEOUT_MS"),
  };
  // A body must name something to analyze (server/analyze-request.ts): a non-empty artifact object or, with a
  // tracking server, a run (by reference or by dataset name); checks_artifacts with its legacy name
  // deepchecks_artifacts is a 400 (artifacts/request.ts). The document says both, so requests made from it are
  // not refused.
  const analysisBody = json(AnalysisRequestSchema);
  const analysisSchema = analysisBody["application/json"].schema as { properties: Record<string, unknown> };
  const notNull = { not: { type: "null" } };
  const given = (field: string, schema: Record<string, unknown>) => ({ required: [field], properties: { [field]: schema } });
  const artifactFields = ["dataset_artifacts", "checks_artifacts", "deepchecks_artifacts", "training_artifacts", "model_checkpoint_artifacts"];
  const somethingToAnalyze = artifactFields.map((field) => given(field, { type: "object", minProperties: 1 }));
  if (deployment.trackingServer) somethingToAnalyze.push(given("mlflow", notNull), given("dataset_name", { type: "string" }));
  else analysisSchema.properties.mlflow = { type: "null", description: "This service has no tracking server (SERVICE_MLFLOW_TRACKING_URI): send the artifacts inline." };
  Object.assign(analysisSchema, {
    anyOf: somethingToAnalyze,
    not: { required: ["checks_artifacts", "deepchecks_artifacts"], properties: { checks_artifacts: notNull, deepchecks_artifacts: notNull } },
  });
  const analyse = {
    summary: "Analyze a training run's artifacts",
    requestBody: { required: true, content: analysisBody },
    responses: {
      200: {
        description:
          "Findings per agent, summary, recommendations and citations. With `Accept: text/event-stream` the run streams " +
          "server-sent events instead: run_started, node_started, node_finished, progress, then result (this same JSON) or error.",
        content: { ...json(AnalysisResponseSchema), "text/event-stream": { schema: { type: "string" } } },
      },
      ...responses,
    },
  };
  const jobId = { name: "id", in: "path", required: true, schema: { type: "string" } };
  const noJob = error("No such job: never submitted, or finished more than SERVICE_JOB_RETENTION_MS ago");
  const queueDown = error("The job queue's Redis is unavailable (Retry-After)");
  const text = (description: string, type: string) => ({ description, content: { [type]: { schema: { type: "string" } } } });
  return {
    openapi: "3.1.0",
    info: { title: "ML experiment diagnosis service", version: "1.0.0" },
    paths: {
      "/v1/analyse": { post: { ...analyse, operationId: "analyse" } },
      "/v1/analyze": { post: { ...analyse, operationId: "analyze", description: "Alias of /v1/analyse." } },
      "/healthz": { get: { summary: "Liveness", responses: { 200: { description: "The process answers" } } } },
      "/readyz": { get: { summary: "Readiness and LLM mode", responses: { 200: { description: "Ready" }, 503: { description: "Draining" } } } },
      "/metrics": { get: { summary: "Prometheus text metrics", responses: { 200: text("Counters and gauges", "text/plain") } } },
      "/v1/report": {
        post: {
          summary: "The analysis as a self-contained HTML report (inline styles and SVG, nothing fetched)",
          requestBody: { required: true, content: analysisBody },
          responses: { 200: text("The report page", "text/html"), ...responses },
        },
      },
      "/v1/graph": {
        get: {
          summary: "The compiled analysis graph: JSON nodes and edges, or Mermaid text (?format=mermaid or Accept: text/plain)",
          parameters: [{ name: "format", in: "query", required: false, schema: { type: "string", enum: ["json", "mermaid"] } }],
          responses: { 200: { description: "The graph", content: { "application/json": { schema: { type: "object" } }, "text/plain": { schema: { type: "string" } } } }, 400: error("Unknown format") },
        },
      },
      "/v1/knowledge": {
        get: {
          summary: "Ranked knowledge documents with scores (q, domain, type, limit), for debugging retrieval",
          parameters: queryParameters(KnowledgeQueryParamsSchema),
          responses: { 200: { description: "Ranked documents", content: { "application/json": { schema: { type: "object" } } } }, 400: error("A bad or unknown parameter") },
        },
      },
      "/v1/compare": {
        post: {
          summary: "Judge the runs of one experiment against each other (docs/experiments.md)",
          description:
            "Each run (inline, with the artifact shapes of /v1/analyse, or pulled from the tracking server) is analysed by the per-run graph, " +
            "then compared: differences within seed noise, a best value on the edge of a swept range, sensitivity, failed runs and what they share, " +
            "regression against the baseline, the run to pick. More than SERVICE_MAX_COMPARE_RUNS runs is a 413.",
          requestBody: { required: true, content: json(CompareRequestSchema) },
          responses: {
            200: { description: "runs (one entry per run: name, summary, top findings), cross-run findings, summary, recommendations, citations", content: { "application/json": { schema: { type: "object" } } } },
            ...responses,
          },
        },
      },
      "/v1/compare/report": {
        post: {
          summary: "The comparison as a self-contained HTML page with the objective plotted against each swept parameter",
          requestBody: { required: true, content: json(CompareRequestSchema) },
          responses: { 200: text("The report page", "text/html"), ...responses },
        },
      },
      "/v1/jobs": {
        post: {
          summary: "Run an analysis as a job (the body of /v1/analyse; a body with `runs` is a comparison, as /v1/compare takes)",
          requestBody: { required: true, content: analysisBody },
          responses: {
            202: { description: "Queued; Location names the job", content: json(z.object({ id: z.string() })) },
            400: responses[400],
            408: responses[408],
            413: responses[413],
            415: responses[415],
            429: responses[429],
            503: error("SERVICE_MAX_QUEUED_JOBS jobs wait, the queue's Redis is unavailable, or the service is shutting down (Retry-After)"),
          },
        },
      },
      "/v1/jobs/{id}": {
        get: { summary: "A job: state, progress, then its result or error", parameters: [jobId], responses: { 200: { description: "The job", content: json(JobViewSchema) }, 404: noJob, 503: queueDown } },
        delete: { summary: "Cancel a queued or running job", parameters: [jobId], responses: { 200: { description: "The job as it is now", content: json(JobViewSchema) }, 404: noJob, 503: queueDown } },
      },
      "/v1/jobs/{id}/events": {
        get: {
          parameters: [jobId],
          summary: "A job's progress as server-sent events: state on every change, then result, failed or cancelled",
          // Each event's data is JSON of its own shape (the job, the analysis response, the error): no one schema.
          responses: { 200: { description: "The event stream", content: { "text/event-stream": { schema: {} } } }, 404: noJob, 503: queueDown },
        },
      },
      "/debug": { get: { summary: "Debug page: the graph, a streamed run, the report", responses: { 200: text("The page", "text/html") } } },
    },
  };
}
