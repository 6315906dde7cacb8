import { z } from "zod";
import type { AnalysisContext } from "./context.js";
import { findExcessiveNesting, MAX_NESTING, shortPath } from "./nesting.js";
import { decodeAnalysisRequest, formatPath, RequestDecodeError } from "./request.js";
import { MAX_NAME_LENGTH } from "./request-limits.js";
import { normalizeLanguage, type Language } from "./language.js";
import { DirectionSchema, directionOf } from "../nodes/experiment/direction.js";

/** The metric runs are judged by, e.g. {"metric": "val_loss", "direction": "minimize"}. */
export const ObjectiveSchema = z.strictObject({
  metric: z.string().min(1).max(MAX_NAME_LENGTH),
  /** Inferred from the metric's name when absent (loss, error, perplexity: minimize; accuracy, f1, auc: maximize). */
  direction: DirectionSchema.nullish(),
});
export type ObjectiveRequest = z.infer<typeof ObjectiveSchema>;

/**
 * One run sent inline: the artifact groups of POST /v1/analyse (same shapes, same legacy names), a name to refer
 * to it by, and its hyper-parameters (also accepted inside training_artifacts.params).
 */
export const InlineRunSchema = z.looseObject({
  name: z.string().min(1).max(MAX_NAME_LENGTH).nullish(),
  params: z.record(z.string(), z.unknown()).nullish(),
});

const RUN_ID = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "expected an MLflow run id");

/** Several runs pulled from the configured tracking server: an experiment's runs (filtered), or a list of run ids. */
export const MlflowRunsSelectorSchema = z.union([
  z.strictObject({
    experiment: z.string().min(1).max(MAX_NAME_LENGTH),
    /** An MLflow search filter, e.g. "params.optimizer = 'adam' and attributes.status = 'FINISHED'". */
    filter: z.string().max(4096).nullish(),
    /** The latest runs first, at most this many (SERVICE_MAX_COMPARE_RUNS bounds the whole comparison). */
    max_runs: z.number().int().min(1).nullish(),
  }),
  z.strictObject({ run_ids: z.array(RUN_ID).min(1) }),
]);
export type MlflowRunsSelector = z.infer<typeof MlflowRunsSelectorSchema>;

/** Whether a run entry selects several runs on the tracking server (an experiment without run_name, or run_ids). */
function isSelector(raw: unknown): boolean {
  const mlflow = (raw as { mlflow?: unknown } | null)?.mlflow;
  if (mlflow === null || typeof mlflow !== "object" || Array.isArray(mlflow)) return false;
  return "run_ids" in mlflow || ("experiment" in mlflow && !("run_name" in mlflow));
}

/** Body of POST /v1/compare (docs/experiments.md); each run is checked by InlineRunSchema and the analyse decoder. */
export const CompareRequestSchema = z.looseObject({
  dataset_name: z.string().max(MAX_NAME_LENGTH).nullish(),
  language: z.string().max(100).nullish(),
  runs: z.array(z.unknown()).min(1, "at least one run is needed (two or more to compare)"),
  /** Name of the run the others are judged against (the CI gate's "main"). */
  baseline: z.string().min(1).max(MAX_NAME_LENGTH).nullish(),
  objective: ObjectiveSchema.nullish(),
  /** Any per-run agent failure becomes a 500 instead of a partial result. */
  strict: z.boolean().nullish(),
});

/** A run ready for the per-run graph: its name, its params as logged, and its analysis context. */
export interface CompareRun {
  name: string;
  /** Position in the request (0-based), for messages. */
  index: number;
  context: AnalysisContext;
  /** The tracking server's id of a run found by a selector, so a baseline may name it by id. */
  runId?: string;
}

/** A decoded comparison: every run's context, the baseline's name and the objective as asked (or null: inferred). */
export interface CompareContext {
  requestId: string;
  datasetName: string | null;
  language: Language;
  strict: boolean;
  runs: CompareRun[];
  /** Entries that select several runs on the tracking server, resolved before the graph runs (artifacts/mlflow/experiment-runs.ts). */
  selectors: Array<{ index: number; selector: MlflowRunsSelector }>;
  baseline: string | null;
  objective: ObjectiveRequest | null;
}

/** More runs than SERVICE_MAX_COMPARE_RUNS: answered 413 with the limit named. */
export class TooManyRunsError extends Error {
  override name = "TooManyRunsError";
  /** Read by server/errors.ts like any status-carrying error. */
  readonly status = 413;
  readonly code = "PAYLOAD_TOO_LARGE";
  constructor(
    readonly given: number,
    readonly limit: number,
  ) {
    super(`${given} runs exceed the limit of ${limit} runs per comparison (SERVICE_MAX_COMPARE_RUNS); split the experiment or filter it`);
  }
}

function describeIssues(error: z.ZodError, prefix: (string | number)[] = []): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${formatPath([...prefix, ...i.path])}: ${i.message.replace(/^Invalid input: /, "")}`)
    .join("; ");
}

/**
 * Validates a parsed POST /v1/compare body: the run count is checked against `maxRuns` before any run is
 * decoded, and each inline run is decoded exactly as POST /v1/analyse decodes its body, so its messages name
 * `runs[i].<field>`.
 */
export function decodeCompareRequest(body: unknown, requestId: string, maxRuns: number): CompareContext {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new RequestDecodeError(`(body): expected a JSON object, received ${Array.isArray(body) ? "array" : body === null ? "null" : typeof body}`);
  }
  const given = (body as { runs?: unknown }).runs;
  if (Array.isArray(given) && given.length > maxRuns) throw new TooManyRunsError(given.length, maxRuns);
  const tooDeep = findExcessiveNesting(body);
  if (tooDeep) throw new RequestDecodeError(`${shortPath(tooDeep)}: nested deeper than ${MAX_NESTING} levels`);
  const parsed = CompareRequestSchema.safeParse(body);
  if (!parsed.success) throw new RequestDecodeError(describeIssues(parsed.error));
  const req = parsed.data;
  const runs: CompareRun[] = [];
  const selectors: CompareContext["selectors"] = [];
  for (const [index, raw] of req.runs.entries()) {
    if (!isSelector(raw)) {
      runs.push(decodeRun(raw, index, req, requestId));
      continue;
    }
    const selector = z.strictObject({ mlflow: MlflowRunsSelectorSchema }).safeParse(raw);
    if (!selector.success) throw new RequestDecodeError(describeIssues(selector.error, ["runs", index]));
    selectors.push({ index, selector: selector.data.mlflow });
  }
  if (req.objective && !req.objective.direction && !directionOf(req.objective.metric)) {
    throw new RequestDecodeError(`objective.direction: the name ${JSON.stringify(req.objective.metric.slice(0, 80))} does not say whether lower or higher is better; give "minimize" or "maximize"`);
  }
  const context: CompareContext = {
    requestId,
    datasetName: req.dataset_name ?? null,
    language: normalizeLanguage(req.language),
    strict: req.strict ?? false,
    runs,
    selectors,
    baseline: req.baseline ?? null,
    objective: req.objective ?? null,
  };
  // With selectors, names and the baseline are known once the tracking server has answered.
  return selectors.length ? context : checkRuns(context, maxRuns);
}

/**
 * Checks a comparison whose runs are all known: at most `maxRuns`, one name per run, and a baseline that names a
 * run (or the tracking-server id of one, then replaced by its name).
 */
export function checkRuns(context: CompareContext, maxRuns: number): CompareContext {
  if (context.runs.length > maxRuns) throw new TooManyRunsError(context.runs.length, maxRuns);
  const names = new Set<string>();
  for (const run of context.runs) {
    if (names.has(run.name)) throw new RequestDecodeError(`runs[${run.index}].name: ${JSON.stringify(run.name)} names two runs; give each run its own name`);
    names.add(run.name);
  }
  const baseline = context.baseline;
  if (!baseline || names.has(baseline)) return context;
  const byId = context.runs.find((r) => r.runId === baseline);
  if (byId) return { ...context, baseline: byId.name };
  throw new RequestDecodeError(`baseline: ${JSON.stringify(baseline.slice(0, 80))} names none of the runs (${[...names].slice(0, 5).join(", ")}${names.size > 5 ? ", …" : ""})`);
}

function decodeRun(raw: unknown, index: number, req: z.infer<typeof CompareRequestSchema>, requestId: string): CompareRun {
  const parsed = InlineRunSchema.safeParse(raw);
  if (!parsed.success) throw new RequestDecodeError(describeIssues(parsed.error, ["runs", index]));
  const { name, params, ...artifacts } = parsed.data;
  // Run-level params join the training artifact's, which the per-run graph reads (its own win: they came with the metrics).
  const training = artifacts.training_artifacts as Record<string, unknown> | null | undefined;
  const withParams = params
    ? { ...artifacts, training_artifacts: { ...training, params: { ...params, ...(training?.params as Record<string, unknown> | undefined) } } }
    : artifacts;
  let context: AnalysisContext;
  try {
    context = decodeAnalysisRequest({ ...withParams, dataset_name: req.dataset_name, language: req.language, strict: req.strict }, requestId);
  } catch (err) {
    if (err instanceof RequestDecodeError) throw new RequestDecodeError(`runs[${index}]${err.message.startsWith("(body)") ? err.message.slice(6) : `.${err.message}`}`);
    throw err;
  }
  if (context.artifacts.length === 0 && !context.mlflow) {
    throw new RequestDecodeError(`runs[${index}]: nothing to analyze: give its training_artifacts (and any other artifact group)`);
  }
  return { name: name ?? `run-${index + 1}`, index, context };
}
