import { open, readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { load as loadYaml } from "js-yaml";
import { decodeAnalysisRequest } from "../../artifacts/request.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { prioritizeFindings } from "../../nodes/findings.js";
import { readPickle } from "../../nodes/checkpoint/file/pickle-machine.js";
import { PyCall, PyDict, type PyValue } from "../../nodes/checkpoint/file/pickle-values.js";
import { readZipDirectory, readZipEntry } from "../../nodes/checkpoint/file/zip.js";
import { detectTrainingFindings } from "../../nodes/training/detect.js";
import { trainingAnalyzer } from "../../nodes/training/node.js";
import { parseTrainingArtifact } from "../../nodes/training/parse/index.js";
import { type CorpusFigures, type ItemVerdict, judgeItem } from "./real-corpus.js";

/**
 * Turns the training run folders of the real-output corpus (test/fixtures/real/runs/<item>/, written by the real
 * frameworks) into `training_artifacts` request bodies, one per way a user sends that run: the file the framework
 * wrote, as text or parsed the way people parse it. This is test support only; the client's folder detection is
 * its own. Every body is what ARTIFACTS.md documents, nothing the service does not accept from anyone.
 */

export const RUNS_DIR = new URL("../fixtures/real/runs/", import.meta.url).pathname;

export interface RunExpectation {
  description: string;
  tool: string;
  layout: { framework: "lightning" | "hf_trainer" | "keras" | "tensorboard" | "mlflow"; logger?: string; sent?: string[] };
  healthy: boolean;
  expected: Array<{ id: string; min_severity: "info" | "low" | "medium" | "high" | "critical" }>;
  absent: string[];
  known_gap: string | null;
}

export interface RunItem {
  name: string;
  dir: string;
  expectation: RunExpectation;
}

/** One request body for a run and how it was made ("metrics.csv as lightning_csv", …). */
export interface RunRequest {
  label: string;
  body: { dataset_name: string; training_artifacts: Record<string, unknown> };
}

export async function loadRunItems(): Promise<RunItem[]> {
  const names = (await readdir(RUNS_DIR, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  return Promise.all(
    names.map(async (name) => ({ name, dir: join(RUNS_DIR, name), expectation: JSON.parse(await readFile(join(RUNS_DIR, name, "expected.json"), "utf8")) as RunExpectation })),
  );
}

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(relative(dir, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

const isEventFile = (path: string) => /(^|\/)events\.out\.tfevents\./.test(path);
const base64Of = async (path: string) => (await readFile(path)).toString("base64");

export async function runRequests(item: RunItem): Promise<RunRequest[]> {
  const files = await filesUnder(item.dir);
  const make = (label: string, training: Record<string, unknown>): RunRequest => ({ label, body: { dataset_name: item.name, training_artifacts: training } });
  switch (item.expectation.layout.framework) {
    case "lightning":
      return lightningRequests(item, files, make);
    case "hf_trainer":
      return [make("trainer_state.json with training_args.bin and config.json as params", await hfTrainerArtifact(item.dir, files))];
    case "keras":
      return kerasRequests(item.dir, files, make);
    case "tensorboard": {
      const events = files.filter(isEventFile);
      return [make(`${events[0]} as tfevents`, { metrics: { format: "tfevents", content_base64: await base64Of(join(item.dir, events[0]!)) } })];
    }
    case "mlflow":
      return [make("mlruns file store run: metrics and params", await mlflowRunArtifact(item.dir, files))];
  }
}

type Make = (label: string, training: Record<string, unknown>) => RunRequest;

/** Lightning's logger folder lightning_logs/version_N/: metrics.csv or an event file, with hparams.yaml. */
async function lightningRequests(item: RunItem, files: string[], make: Make): Promise<RunRequest[]> {
  const version = files.find((f) => /lightning_logs\/version_\d+\/hparams\.yaml$/.test(f))!.replace(/hparams\.yaml$/, "");
  const params = (loadYaml(await readFile(join(item.dir, version, "hparams.yaml"), "utf8")) ?? {}) as Record<string, unknown>;
  const out: RunRequest[] = [];
  const csv = files.find((f) => f === `${version}metrics.csv`);
  if (csv) out.push(make(`${csv} as lightning_csv`, { metrics: { format: "lightning_csv", content: await readFile(join(item.dir, csv), "utf8") }, params }));
  for (const events of files.filter((f) => f.startsWith(version) && isEventFile(f))) {
    out.push(make(`${events} as tfevents`, { metrics: { format: "tfevents", content_base64: await base64Of(join(item.dir, events)) }, params }));
  }
  // pandas to_dict() output as the generator wrote it with the real pandas (bare NaN for every empty cell).
  for (const sent of item.expectation.layout.sent ?? []) {
    out.push(make(`${sent} (pandas)`, { metrics: parseTolerantJson(await readFile(join(item.dir, sent), "utf8")), params }));
  }
  return out;
}

/**
 * An HF Trainer output dir: trainer_state.json, and as params what transformers' MLflow callback logs, the model
 * config merged under the TrainingArguments (read from training_args.bin without unpickling it).
 */
async function hfTrainerArtifact(dir: string, files: string[]): Promise<Record<string, unknown>> {
  const state = parseTolerantJson(await readFile(join(dir, "trainer_state.json"), "utf8"));
  const config = files.find((f) => /(^|\/)config\.json$/.test(f));
  const argsFile = files.find((f) => /(^|\/)training_args\.bin$/.test(f));
  const args = argsFile ? await readTrainingArgs(join(dir, argsFile)) : {};
  const params = { ...(config ? (JSON.parse(await readFile(join(dir, config), "utf8")) as Record<string, unknown>) : {}), ...args };
  return { metrics: { format: "hf_trainer_state", content: state }, params };
}

/** The fields of the pickled TrainingArguments in a torch.save zip, read by the service's inert pickle reader. */
async function readTrainingArgs(path: string): Promise<Record<string, unknown>> {
  const fh = await open(path, "r");
  try {
    const entries = await readZipDirectory(fh, (await stat(path)).size);
    const pickle = entries.find((e) => e.name.endsWith("/data.pkl"));
    if (!pickle) return {};
    const root = readPickle(await readZipEntry(fh, pickle, 1 << 20)).value;
    const state = root instanceof PyCall && root.state instanceof PyDict ? root.state : null;
    return state ? Object.fromEntries(state.entries.flatMap(([k, v]) => (typeof k === "string" ? [[k, scalarOf(v)]] : []))) : {};
  } finally {
    await fh.close();
  }
}

/** A field's plain value; enum members (OptimizerNames.ADAMW_TORCH, pickled as a call on their value) become it. */
function scalarOf(v: PyValue): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof PyCall && v.args.length === 1 && (typeof v.args[0] === "string" || typeof v.args[0] === "number")) return v.args[0];
  return null;
}

/** Keras: CSVLogger's csv, the History dict as JSON, and the TensorBoard callback's train/ + validation/ pair. */
async function kerasRequests(dir: string, files: string[], make: Make): Promise<RunRequest[]> {
  const out: RunRequest[] = [];
  const csv = files.find((f) => f.endsWith(".csv"));
  if (csv) out.push(make(`${csv} as keras_csv`, { metrics: { format: "keras_csv", content: await readFile(join(dir, csv), "utf8") } }));
  if (files.includes("history.json")) out.push(make("history.json (History.history)", { metrics: parseTolerantJson(await readFile(join(dir, "history.json"), "utf8")) }));
  const events = files.filter(isEventFile);
  if (events.length > 0) {
    const parts = await Promise.all(events.map(async (path) => ({ path, content_base64: await base64Of(join(dir, path)) })));
    out.push(make(`${events.join(" + ")} as one tfevents run`, { metrics: { format: "tfevents", files: parts } }));
  }
  return out;
}

/** MLflow's file store: mlruns/<experiment>/<run>/metrics/<key> ("timestamp value step" lines) and params/<key>. */
async function mlflowRunArtifact(dir: string, files: string[]): Promise<Record<string, unknown>> {
  const metrics: Record<string, Array<{ step: number; value: number; timestamp: number }>> = {};
  const params: Record<string, string> = {};
  for (const f of files) {
    const m = /^mlruns\/[^/]+\/[^/]+\/(metrics|params)\/(.+)$/.exec(f);
    if (!m) continue;
    const text = await readFile(join(dir, f), "utf8");
    if (m[1] === "params") params[m[2]!] = text;
    else {
      metrics[m[2]!] = text.trim().split("\n").map((line) => {
        const [timestamp, value, step] = line.split(" ");
        return { step: Number(step), value: Number(value), timestamp: Number(timestamp) };
      });
    }
  }
  return { metrics, params };
}

/** A request judged: its run's expectation against the training analyzer's findings (judgeItem of real-corpus.ts). */
async function analyzeRequest(item: RunItem, request: RunRequest): Promise<{ verdict: ItemVerdict; findings: number; ungrouped: number }> {
  const context = decodeAnalysisRequest(request.body, "real-corpus");
  const artifact = context.artifacts.find((a) => a.kind === "training");
  if (!artifact) throw new Error(`${item.name}: ${request.label} carries no training artifact`);
  const run = parseTrainingArtifact(artifact.payload);
  const findings = prioritizeFindings(trainingAnalyzer.detect(run));
  const expectation = { ...item.expectation, artifacts: [] };
  return { verdict: judgeItem(expectation, findings), findings: findings.length, ungrouped: prioritizeFindings(detectTrainingFindings(run)).length };
}

/**
 * Every request of every run folder through the training analyzer's parse and detect steps (deterministic mode),
 * counted per framework and in all (the last row; `items` counts requests), for docs/detectors.md.
 */
export async function measureTrainingRunCorpus(): Promise<CorpusFigures[]> {
  const rows = new Map<string, CorpusFigures>();
  const row = (group: string) => rows.get(group) ?? rows.set(group, { group, items: 0, healthy: 0, expected: 0, found: 0, foundAnySeverity: 0, severeOnHealthy: 0, findingsBefore: 0, findingsAfter: 0, knownGaps: 0, misses: [] }).get(group)!;
  for (const item of await loadRunItems()) {
    for (const request of await runRequests(item)) {
      const { verdict: v, findings, ungrouped } = await analyzeRequest(item, request);
      for (const r of [row(item.expectation.layout.framework), row("all")]) {
        r.items++;
        r.healthy += item.expectation.healthy ? 1 : 0;
        r.expected += item.expectation.expected.length;
        r.found += v.hits.length;
        r.foundAnySeverity += v.hits.length + v.misses.filter((m) => m.got !== null).length;
        r.severeOnHealthy += v.severeOnHealthy.length;
        r.findingsBefore += ungrouped;
        r.findingsAfter += findings;
        r.knownGaps += item.expectation.known_gap ? 1 : 0;
        r.misses.push(...v.misses.map((m) => `${item.name} (${request.label}): ${m.id} (expected ${m.expected}, got ${m.got ?? "nothing"})`));
        r.misses.push(...v.unwanted.map((id) => `${item.name} (${request.label}): ${id} present, expected absent`));
      }
    }
  }
  const all = rows.get("all")!;
  rows.delete("all");
  return [...[...rows.values()].sort((a, b) => a.group.localeCompare(b.group)), all];
}
