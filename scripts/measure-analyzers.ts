// Measures the analyzers' own CPU per request on the small sample requests, in-process, stage by stage: each
// analyzer's deterministic examination (parse → detect → facts → describe, nodes/examine.ts, offline so no digest),
// the findings' citations (the knowledge base as the service builds it, its cache warm after the first round, as
// in a running service), then integrate's rules and summary and the advisor's plan, all as the offline graph runs
// them minus LangGraph. CPU time per call, the least of `rounds` rounds of `repeats` calls each (the machine is
// shared: the least is the steadiest figure). No HTTP, no graph: those are `npm run bench -- --only http_overhead`.
// Run: npx tsx scripts/measure-analyzers.ts [repeats=1000] [rounds=3] [sample-file-filter]
//      (under `node --cpu-prof --import tsx` to see where the time goes)
//      npx tsx scripts/measure-analyzers.ts --outputs > out.jsonl: what every stage returned, one line per request
//      (the samples, then the real training-run corpus), to diff against another tree: a speed-up changes none.
import { readdirSync, readFileSync } from "node:fs";
import type { ArtifactKind } from "../artifacts/context.js";
import { decodeAnalysisRequest } from "../artifacts/request.js";
import { parseTolerantJson } from "../artifacts/tolerant-json.js";
import { loadServiceSettings } from "../config/env.js";
import { createLogger } from "../config/logger.js";
import type { AgentResult, Finding } from "../domain/result.js";
import type { AnalysisDeps } from "../graph/context.js";
import { Deadline } from "../graph/deadline.js";
import type { FactsByKind } from "../graph/facts.js";
import { createKnowledgeBase } from "../knowledge/create.js";
import { citeUncited } from "../nodes/advise/cite.js";
import { groupRecommendations } from "../nodes/advise/groups.js";
import { citationOrder, planRecommendations } from "../nodes/advise/plan.js";
import { templateAdvice } from "../nodes/advise/template.js";
import { buildAgentResult } from "../nodes/agent-result.js";
import type { AnalyzerRun, AnalyzerSpec } from "../nodes/analyzer.js";
import { checkpointAnalyzer } from "../nodes/checkpoint/node.js";
import { checksAnalyzer } from "../nodes/checks/node.js";
import { datasetAnalyzer } from "../nodes/dataset/node.js";
import { examinePayload } from "../nodes/examine.js";
import { prioritizeFindings } from "../nodes/findings.js";
import { collectCrossEvidence } from "../nodes/integrate/evidence.js";
import { runCrossRules } from "../nodes/integrate/rules/index.js";
import { templateSummary } from "../nodes/integrate/summary.js";
import { trainingAnalyzer } from "../nodes/training/node.js";
import { loadRunItems, runRequests } from "../test/support/run-folders.js";

const repeats = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 3);
const only = process.argv[4] ?? "";
const SAMPLES = new URL("../test/fixtures/samples/", import.meta.url);

const SPECS: Record<ArtifactKind, AnalyzerSpec<unknown, unknown>> = {
  training: trainingAnalyzer as AnalyzerSpec<unknown, unknown>,
  dataset: datasetAnalyzer as AnalyzerSpec<unknown, unknown>,
  checks: checksAnalyzer as AnalyzerSpec<unknown, unknown>,
  checkpoint: checkpointAnalyzer as AnalyzerSpec<unknown, unknown>,
};

const knowledge = createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });
const deps: AnalysisDeps = {
  settings: loadServiceSettings({}),
  logger: createLogger("silent"),
  knowledge,
  llm: null,
  analyzerSlots: null,
  deadline: new Deadline(),
  workspace: null,
};

/** The service passes each agent's signal (its time-out) to the knowledge base: so does this. */
const signal = new AbortController().signal;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * One offline analysis of a decoded request, minus LangGraph and HTTP, timing each stage into `spent`; returns
 * what the stages returned.
 */
async function analyse(body: unknown, spent: Map<string, number>): Promise<unknown> {
  const time = async <T>(stage: string, f: () => T | Promise<T>): Promise<T> => {
    const t = cpuMs();
    const value = await f();
    spent.set(stage, (spent.get(stage) ?? 0) + cpuMs() - t);
    return value;
  };
  const context = await time("decode", () => decodeAnalysisRequest(body, "bench"));
  const agentResults: Record<string, AgentResult> = {};
  const facts: Record<string, unknown> = {};
  const outputs: Record<string, unknown> = {};
  for (const artifact of context.artifacts) {
    const spec = SPECS[artifact.kind];
    const run: AnalyzerRun = {
      input: { artifact, language: context.language, datasetName: context.datasetName, modelName: context.modelName },
      deps,
      signal: deps.deadline.signal,
      progress: () => {},
    };
    const examination = await time(artifact.kind, () => examinePayload(spec, artifact.payload, run, false));
    outputs[artifact.kind] = examination;
    if ("unreadable" in examination) continue;
    const { findings, analyzed } = examination.examined;
    const cited = await time("citations", () => knowledge.citeFindings(findings, signal));
    agentResults[spec.agentName] = await time("results", () => buildAgentResult(spec.agentName, cited, analyzed, null, null));
    facts[artifact.kind] = examination.examined.facts;
  }
  outputs.integrate = await time("integrate", async () => {
    const cross = await knowledge.citeFindings(prioritizeFindings(runCrossRules(collectCrossEvidence(agentResults, facts as FactsByKind))), signal);
    const summary = templateSummary(agentResults, cross, {});
    agentResults.CrossArtifactReasoningAgent = buildAgentResult("CrossArtifactReasoningAgent", cross, [], null, summary);
    return agentResults.CrossArtifactReasoningAgent;
  });
  outputs.advise = await time("advise", async () => {
    const plan = await citeUncited(planRecommendations(agentResults), knowledge, signal);
    const all: Finding[] = prioritizeFindings(Object.values(agentResults).flatMap((r) => r.findings));
    return { plan, advice: templateAdvice(plan), groups: groupRecommendations(plan), citations: knowledge.describe(citationOrder(all, plan)) };
  });
  outputs.results = agentResults;
  return outputs;
}

const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".json") && f !== "bad-request.json" && f.includes(only))
  .sort()
  .map((f) => ({ name: f.replace(/\.json$/, ""), body: parseTolerantJson(readFileSync(new URL(f, SAMPLES), "utf8")) }));

if (process.argv[2] === "--outputs") {
  const requests = samples.map(({ name, body }) => ({ name, body }));
  for (const item of await loadRunItems()) for (const r of await runRequests(item)) requests.push({ name: `${item.name}: ${r.label}`, body: r.body });
  for (const { name, body } of requests) console.log(JSON.stringify({ name, outputs: await analyse(body, new Map()) }));
  process.exit(0);
}

const least = new Map<string, Map<string, number>>();
for (let r = 0; r < rounds; r++) {
  for (const { name, body } of samples) {
    const spent = new Map<string, number>();
    for (let i = 0; i < repeats; i++) await analyse(body, spent);
    const best = least.get(name) ?? new Map<string, number>();
    for (const [stage, ms] of spent) best.set(stage, Math.min(best.get(stage) ?? Number.POSITIVE_INFINITY, ms / repeats));
    least.set(name, best);
  }
}

const STAGES = ["decode", "training", "dataset", "checks", "checkpoint", "citations", "results", "integrate", "advise"];
console.log(`CPU ms per analysis, least of ${rounds} rounds × ${repeats} (load ${(await import("node:os")).loadavg()[0]!.toFixed(2)})`);
console.log(["sample", ...STAGES, "total"].join("\t"));
for (const [name, best] of least) {
  const cells = STAGES.map((s) => (best.has(s) ? best.get(s)!.toFixed(3) : "-"));
  const total = [...best.values()].reduce((a, b) => a + b, 0);
  console.log([name, ...cells, total.toFixed(3)].join("\t"));
}
