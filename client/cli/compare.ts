import { existsSync } from "node:fs";
import { normalize } from "node:path";
import { CompareResponseSchema, type CompareResponseBody } from "../../domain/result.js";
import { detectRun } from "../detect/detect-run.js";
import { ClientError } from "../errors.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { colourWanted, type Palette, palette } from "../render/colour.js";
import { renderCompareMarkdown, renderCompareText } from "../render/compare.js";
import { detectedParts, mergeArtifacts } from "../request/build-request.js";
import { stringifyRequest } from "../request/json.js";
import { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS } from "../transport/retry.js";
import { parseAnswer } from "../transport/answer.js";
import { runAsJob } from "../transport/job.js";
import { type RetryNotice, retryLine, sendWithRetry } from "../transport/send.js";
import type { CompareOptions } from "./compare-options.js";
import type { Io } from "./io.js";
import { checkOutputPath, emitOutput } from "./output-file.js";
import { describeSources } from "./report-sources.js";

/** A run folder's name in the comparison: the path as given, without a trailing slash (unique, and what the user typed). */
const runName = (path: string) => normalize(path).replace(/\/+$/, "");

/** One inline run from a folder, read as `analyse` reads it; checkpoints stay out (a scan per run costs too much for what a comparison uses). */
async function folderRun(path: string, io: Io, err: Palette, quiet: boolean): Promise<Record<string, unknown>> {
  const detected = await detectRun([path]);
  const { parts, skipped } = detectedParts(detected);
  io.stderr.write(describeSources(detected.used, [...detected.skipped, ...skipped], err, quiet));
  const { fields } = mergeArtifacts(parts);
  if (Object.keys(fields).length === 0) throw new ClientError("INPUT", `${path}: no metrics log or report found for this run (see the lines above)`);
  return { name: runName(path), ...fields };
}

/** The POST /v1/compare body from the folders and flags. */
async function buildRequest(o: CompareOptions, io: Io, err: Palette): Promise<Record<string, unknown>> {
  // A baseline that is a folder is a run like the others (first, so it leads the listing); else a name or MLflow id.
  const baselineFolder = o.baseline !== null && existsSync(o.baseline) ? runName(o.baseline) : null;
  const paths = [...new Set([...(baselineFolder ? [baselineFolder] : []), ...o.paths.map(runName)])];
  const runs: Array<Record<string, unknown>> = [];
  for (const path of paths) runs.push(await folderRun(path, io, err, o.quiet));
  if (o.mlflowExperiment) {
    runs.push({ mlflow: { experiment: o.mlflowExperiment, ...(o.filter ? { filter: o.filter } : {}), ...(o.maxRuns ? { max_runs: o.maxRuns } : {}) } });
  }
  return {
    ...(o.datasetName ? { dataset_name: o.datasetName } : {}),
    runs,
    ...(o.baseline ? { baseline: baselineFolder ?? o.baseline } : {}),
    ...(o.objective ? { objective: { metric: o.objective, ...(o.direction ? { direction: o.direction } : {}) } } : {}),
  };
}

function parse(body: string): CompareResponseBody {
  return parseAnswer(body, CompareResponseSchema, "a comparison");
}

/** From this many runs a comparison is sent as a job (POST /v1/jobs) and followed, not held on one request. */
export const JOB_MIN_RUNS = 20;

/** `ml-diagnose compare`: read each folder, send the runs, render, and gate on a regression against the baseline. */
export async function runCompare(o: CompareOptions, io: Io): Promise<ExitCode> {
  const err = palette(colourWanted(io.stderr.isTTY ?? false, io.env, o.noColor));
  if (o.output) await checkOutputPath(o.output);
  const request = await buildRequest(o, io, err);
  const write = (text: string) => emitOutput(text, o, io);
  if (o.dryRun) {
    await write(`${stringifyRequest(request, 2)}\n`);
    return EXIT.ok;
  }
  const send = {
    body: stringifyRequest(request),
    timeoutMs: o.timeoutMs,
    policy: { retries: o.retries, maxWaitMs: o.maxWaitMs, baseDelayMs: DEFAULT_BASE_DELAY_MS, maxDelayMs: DEFAULT_MAX_DELAY_MS },
    clock: io.clock,
    random: io.random,
    onRetry: (n: RetryNotice) => io.stderr.write(`${err.dim(retryLine(n))}\n`),
  };
  const runCount = Array.isArray(request.runs) ? request.runs.length : 0;
  // A large experiment runs as a job: no request held open for minutes, and it survives a replica going away.
  const answer =
    runCount >= JOB_MIN_RUNS
      ? await runAsJob({
          ...send,
          server: o.server,
          onSubmitted: (id) => !o.quiet && io.stderr.write(`${err.dim(`${runCount} runs: submitted as job ${id}`)}\n`),
          onProgress: (p) => !o.quiet && p.runs_total != null && io.stderr.write(`${err.dim(`runs analysed: ${p.runs_done ?? 0}/${p.runs_total}`)}\n`),
        })
      : await sendWithRetry({ ...send, url: `${o.server}/v1/compare` });
  const response = parse(answer);
  const colour = !o.output && colourWanted(io.stdout.isTTY ?? false, io.env, o.noColor);
  await write(o.format === "json" ? (answer.endsWith("\n") ? answer : `${answer}\n`) : o.format === "markdown" ? renderCompareMarkdown(response) : renderCompareText(response, palette(colour)));
  if (!o.failOnRegression || !response.baseline_comparison?.regression) return EXIT.ok;
  const regressed = response.baseline_comparison.candidates.filter((c) => c.regression).flatMap((c) => c.runs);
  io.stderr.write(`gate failed: ${regressed.length} run${regressed.length === 1 ? "" : "s"} regress against the baseline ${response.baseline_comparison.baseline} (--fail-on-regression)\n`);
  return EXIT.gateFailed;
}
