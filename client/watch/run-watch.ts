import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { AnalysisResponseSchema, type Finding, severityRank } from "../../domain/result.js";
import type { Io } from "../cli/io.js";
import type { WatchOptions } from "../cli/watch-options.js";
import { ClientError } from "../errors.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { colourWanted, type Palette, palette } from "../render/colour.js";
import { stringifyRequest } from "../request/json.js";
import { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS, systemClock } from "../transport/retry.js";
import { parseAnswer } from "../transport/answer.js";
import { retryLine, sendWithRetry } from "../transport/send.js";
import { RunFollower } from "./follow-run.js";
import { stopProcess } from "./stop-process.js";

/** A finding printed as new, or again because its severity rose. */
interface Reported {
  finding: Finding;
  escalated: boolean;
}

/** Findings not reported yet, or now more severe than when they were; `seen` keeps the worst rank printed per id. */
export function newOrEscalated(findings: readonly Finding[], seen: Map<string, number>): Reported[] {
  const out: Reported[] = [];
  for (const f of findings) {
    const rank = severityRank(f.severity);
    const before = seen.get(f.id);
    if (before !== undefined && rank >= before) continue;
    seen.set(f.id, rank);
    out.push({ finding: f, escalated: before !== undefined });
  }
  return out;
}

function findingLine(r: Reported, at: string, p: Palette): string {
  const f = r.finding;
  const step = f.evidence[0]?.detected_at_step;
  const head = `${p.dim(at)} ${r.escalated ? "↑ " : ""}${p.severity(f.severity, f.severity.toUpperCase().padEnd(8))} ${p.bold(f.title)} ${p.dim(`[${f.id}]${typeof step === "number" ? ` at step ${step}` : ""}`)}`;
  return f.evidence[0] ? `${head}\n           ${f.evidence[0].text}\n` : `${head}\n`;
}

/** Runs `--on-finding` through the shell with the finding as JSON on stdin; a failing hook is reported, never fatal. */
function runHook(command: string, payload: unknown, io: Io, err: Palette): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { stdio: ["pipe", "ignore", "inherit"] });
    child.on("error", (e) => {
      io.stderr.write(`${err.red(`--on-finding could not start: ${e.message}`)}\n`);
      resolve();
    });
    child.on("exit", (code) => {
      if (code !== 0) io.stderr.write(`${err.red(`--on-finding exited with ${code}`)}\n`);
      resolve();
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(`${JSON.stringify(payload)}\n`);
  });
}

/**
 * `ml-diagnose watch`: follows a run folder while it trains, re-analyses when new points arrived (at most once per
 * --interval, as a run still going), prints each new or escalated finding with a timestamp, and ends when the run
 * does (an end marker, or no growth for --idle) after a last analysis of the finished run. With --stop-on it
 * interrupts the training (--signal-pid) and exits 1 at the first finding that severe.
 */
export async function runWatch(o: WatchOptions, io: Io): Promise<ExitCode> {
  const info = await stat(o.folder).catch(() => null);
  if (!info?.isDirectory()) throw new ClientError("INPUT", `${o.folder}: not a folder; watch the folder your training writes its logs to`);
  const clock = io.clock ?? systemClock;
  const out = palette(colourWanted(io.stdout.isTTY ?? false, io.env, o.noColor));
  const err = palette(colourWanted(io.stderr.isTTY ?? false, io.env, o.noColor));
  const note = (text: string) => {
    if (!o.quiet) io.stderr.write(`${err.dim(text)}\n`);
  };
  const follower = new RunFollower(o.folder);
  const seen = new Map<string, number>();
  const started = clock.now();
  let lastGrowth = started;
  let lastAnalysis = Number.NEGATIVE_INFINITY;
  let pending = false;
  let analyses = 0;
  let announced = false;
  note(`watching ${o.folder}: analysing at most every ${o.intervalMs / 1000} s, ending after ${o.idleMs / 1000} s without growth`);

  for (;;) {
    const poll = await follower.poll();
    const now = clock.now();
    if (!announced && follower.label) {
      note(`following ${follower.label}`);
      announced = true;
    }
    if (poll.added > 0) {
      pending = true;
      lastGrowth = now;
    }
    const idle = now - lastGrowth >= o.idleMs;
    const ended = poll.ended || idle;
    if ((pending && now - lastAnalysis >= o.intervalMs) || (ended && analyses === 0) || (ended && pending)) {
      const artifact = follower.artifact(!ended);
      if (artifact) {
        analyses++;
        const findings = await analyse(artifact, o, io);
        note(`analysis ${analyses}${ended ? " (run ended)" : ""}: ${findings.length} finding${findings.length === 1 ? "" : "s"}`);
        const at = new Date(now).toISOString().replace(/\.\d+Z$/, "Z");
        const fresh = newOrEscalated(findings, seen);
        for (const r of fresh) io.stdout.write(findingLine(r, at, out));
        if (o.onFinding) for (const r of fresh) await runHook(o.onFinding, { run: o.folder, at, escalated: r.escalated, finding: r.finding }, io, err);
        const stop = o.stopOn ? fresh.find((r) => severityRank(r.finding.severity) <= severityRank(o.stopOn!)) : undefined;
        if (stop) return await stopRun(stop.finding, o, io, err, ended);
      }
      pending = false;
      lastAnalysis = now;
    }
    if (ended) {
      if (analyses === 0) throw new ClientError("INPUT", `no metrics appeared in ${o.folder} within --idle ${o.idleMs / 1000} s (a Lightning or Keras CSV log, TensorBoard event files, an MLflow run or trainer_state.json)`);
      note(poll.ended ? "the run wrote its end marker: done" : `no growth for ${o.idleMs / 1000} s: done`);
      return EXIT.ok;
    }
    await clock.sleep(o.pollMs);
  }
}

async function analyse(artifact: Record<string, unknown>, o: WatchOptions, io: Io): Promise<Finding[]> {
  const body = stringifyRequest({ ...(o.datasetName ? { dataset_name: o.datasetName } : {}), training_artifacts: artifact });
  const answer = await sendWithRetry({
    url: `${o.server}/v1/analyse`,
    body,
    timeoutMs: o.timeoutMs,
    policy: { retries: o.retries, maxWaitMs: o.maxWaitMs, baseDelayMs: DEFAULT_BASE_DELAY_MS, maxDelayMs: DEFAULT_MAX_DELAY_MS },
    clock: io.clock,
    random: io.random,
    onEvent: null,
    onRetry: (n) => io.stderr.write(`${retryLine(n)}\n`),
  });
  return Object.values(parseAnswer(answer, AnalysisResponseSchema, "an analysis response").agent_results).flatMap((r) => r.findings);
}

/** --stop-on reached: stop the training (--signal-pid: SIGINT, then SIGTERM after the grace), then exit 1. */
async function stopRun(f: Finding, o: WatchOptions, io: Io, err: Palette, ended: boolean): Promise<ExitCode> {
  if (o.signalPid !== null && !ended) await stopProcess(o.signalPid, o.signalGraceMs, (line) => io.stderr.write(`${err.red(line)}\n`));
  io.stderr.write(`stopping: ${f.severity} finding ${f.id} (--stop-on ${o.stopOn})\n`);
  return EXIT.gateFailed;
}
