import { writeFile } from "node:fs/promises";
import { AnalysisResponseSchema, severityRank, type Severity } from "../../domain/result.js";
import { scanLocalCheckpoint } from "../checkpoint/scan-local.js";
import { detectRun } from "../detect/detect-run.js";
import { ClientError } from "../errors.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { colourWanted, type Palette, palette } from "../render/colour.js";
import { digestResponse } from "../render/digest.js";
import { renderMarkdown } from "../render/markdown.js";
import { renderText } from "../render/text.js";
import { type ArtifactPart, assembleRequest, checkpointPart, detectedParts } from "../request/build-request.js";
import { stringifyRequest } from "../request/json.js";
import { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS } from "../transport/retry.js";
import { sendWithRetry } from "../transport/send.js";
import type { Io } from "./io.js";
import { recordDiagnosis } from "../mlflow/diagnosis-record.js";
import { trackingServerFrom } from "../mlflow/record.js";
import { datasetPart } from "./dataset-part.js";
import type { AnalyseOptions } from "./options.js";
import { progressView } from "./progress.js";
import { describeSources } from "./report-sources.js";

/** Reads the paths into artifact parts, printing what went where; under --strict a problem file stops here. */
async function gatherParts(o: AnalyseOptions, io: Io, err: Palette): Promise<ArtifactPart[]> {
  const run = await detectRun(o.paths, { run: o.run });
  const { parts, skipped } = detectedParts(run);
  io.stderr.write(describeSources(run.used, [...run.skipped, ...skipped], err, o.quiet));
  const problems = run.skipped.filter((s) => s.problem);
  if (o.strict && problems.length > 0) {
    throw new ClientError("INPUT", `--strict: ${problems.length} input file${problems.length === 1 ? "" : "s"} could not be used (listed above); fix or remove ${problems.length === 1 ? "it" : "them"}`);
  }
  if (run.checkpoint) {
    const source = run.used.find((u) => u.target === "model_checkpoint_artifacts")?.source ?? run.checkpoint.path;
    if (o.serverPaths) {
      parts.push(checkpointPart(run.checkpoint, source, null));
    } else {
      // A large checkpoint takes seconds to read: on a terminal, say how far the scan is.
      const live = !o.quiet && (io.stderr.isTTY ?? false);
      const onProgress = live ? (done: number, total: number) => io.stderr.write(`\r${err.dim(`  scanning the checkpoint: ${Math.round((100 * done) / Math.max(1, total))} %`)}`) : undefined;
      const metadata = await scanLocalCheckpoint(run.checkpoint, onProgress);
      if (live) io.stderr.write("\r\u001b[2K");
      parts.push(checkpointPart(run.checkpoint, source, metadata));
    }
  }
  return parts;
}

function gate(body: string, failOn: Severity | null, io: Io): ExitCode {
  if (!failOn) return EXIT.ok;
  const parsed = AnalysisResponseSchema.parse(JSON.parse(body));
  const hits = Object.values(parsed.agent_results).flatMap((r) => r.findings).filter((f) => severityRank(f.severity) <= severityRank(failOn));
  if (hits.length === 0) return EXIT.ok;
  io.stderr.write(`gate failed: ${hits.length} finding${hits.length === 1 ? "" : "s"} at ${failOn} or above (--fail-on ${failOn})\n`);
  return EXIT.gateFailed;
}

/** The response rendered in the format asked for; json and html pass through as the service sent them. */
function render(body: string, o: AnalyseOptions, io: Io): string {
  if (o.format === "json" || o.format === "html") return body.endsWith("\n") ? body : `${body}\n`;
  const parsed = AnalysisResponseSchema.safeParse(JSON.parse(body));
  if (!parsed.success) throw new ClientError("SERVICE_ERROR", `the service's answer is not an analysis response (${parsed.error.issues[0]?.message}); is --server pointing at the diagnosis service?`);
  const digest = digestResponse(parsed.data);
  const colour = !o.output && colourWanted(io.stdout.isTTY ?? false, io.env, o.noColor);
  return o.format === "markdown" ? renderMarkdown(digest) : renderText(digest, palette(colour));
}

async function emit(text: string, o: AnalyseOptions, io: Io): Promise<void> {
  if (!o.output) {
    io.stdout.write(text);
    return;
  }
  await writeFile(o.output, text);
  if (!o.quiet) io.stderr.write(`wrote ${o.format} to ${o.output}\n`);
}

/** `ml-diagnose analyse`: detect, build, send with retries, render, gate. Errors are thrown as ClientError. */
export async function runAnalyse(o: AnalyseOptions, io: Io): Promise<ExitCode> {
  const err = palette(colourWanted(io.stderr.isTTY ?? false, io.env, o.noColor));
  const tracking = o.recordToMlflow ? trackingServerFrom(io.env) : null;
  const parts = o.paths.length > 0 ? await gatherParts(o, io, err) : [];
  if (o.data) parts.push(await datasetPart({ ...o, data: o.data }, io, err));
  const { request, skipped } = assembleRequest(parts, o);
  io.stderr.write(describeSources([], skipped, err, o.quiet));
  const body = stringifyRequest(request);
  if (o.dryRun) {
    await emit(`${stringifyRequest(request, 2)}\n`, o, io);
    return EXIT.ok;
  }
  const showProgress = !o.quiet && o.format !== "html" && (o.progress ?? io.stderr.isTTY ?? false);
  const progress = showProgress ? progressView(io.stderr, err) : null;
  const answer = await sendWithRetry({
    url: `${o.server}${o.format === "html" ? "/v1/report" : "/v1/analyse"}`,
    body,
    timeoutMs: o.timeoutMs,
    policy: { retries: o.retries, maxWaitMs: o.maxWaitMs, baseDelayMs: DEFAULT_BASE_DELAY_MS, maxDelayMs: DEFAULT_MAX_DELAY_MS },
    clock: io.clock,
    random: io.random,
    onEvent: progress?.onEvent ?? null,
    onRetry: (n) => {
      progress?.done();
      io.stderr.write(`${err.dim(`retry ${n.retry}/${o.retries} in ${(n.delayMs / 1000).toFixed(1)} s: ${n.reason}`)}\n`);
    },
  }).finally(() => progress?.done());
  await emit(render(answer, o, io), o, io);
  if (tracking && o.recordToMlflow) {
    const recorded = await recordDiagnosis(tracking, o.recordToMlflow, request, answer);
    if (!o.quiet) io.stderr.write(`${err.dim(recorded)}\n`);
  }
  return gate(answer, o.failOn, io);
}
