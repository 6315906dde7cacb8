// Measures the analyzers' own CPU per request on the sample requests, in-process, stage by stage: each analyzer's
// deterministic examination (parse → detect → facts → describe, nodes/examine.ts; offline, so no digest), the
// findings' citations (the knowledge base as the service builds it, its cache warm after the first request, as in
// a running service), then integrate's rules and summary and the advisor's plan, as the offline graph runs them
// minus LangGraph and HTTP (those are `npm run bench -- --only http_overhead`). CPU time per analysis, the least
// of the rounds (the machine is shared: the least is the steadiest figure).
//   npx tsx scripts/measure-analyzers.ts [--repeats 300] [--rounds 4] [--only full-image]
//   --against <other checkout>: the same pipeline from that tree's sources too, in this process, the two trees
//     alternated round by round (a before/after comparison free of the load drifting between two runs).
//   --outputs > out.jsonl: what every stage returned, one line per request (the samples, then the real
//     training-run corpus), to diff against another tree's: a speed-up changes none.
//   Under `node --cpu-prof --import tsx scripts/measure-analyzers.ts …` to see where the time goes.
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ArtifactKind } from "../artifacts/context.js";
import type { AgentResult, Finding } from "../domain/result.js";
import type { AnalysisDeps } from "../graph/context.js";
import type { FactsByKind } from "../graph/facts.js";
import type { AnalyzerRun, AnalyzerSpec } from "../nodes/analyzer-spec.js";
import { loadRunItems, runRequests } from "../test/support/run-folders.js";

const { values: args } = parseArgs({
  options: {
    repeats: { type: "string", default: "300" },
    rounds: { type: "string", default: "4" },
    only: { type: "string", default: "" },
    against: { type: "string" },
    outputs: { type: "boolean", default: false },
  },
});
const ROOT = resolve(import.meta.dirname, "..");
const SAMPLES = resolve(ROOT, "test/fixtures/samples");
const STAGES = ["decode", "training", "dataset", "checks", "checkpoint", "citations", "results", "integrate", "advise"] as const;

/** One offline analysis of a request body; adds each stage's CPU ms to `spent` and returns what the stages returned. */
type Analyse = (body: unknown, spent: Map<string, number>) => Promise<unknown>;

/** The pipeline built from the sources of the checkout at `root` (this one, or the one compared with). */
async function pipelineOf(root: string): Promise<{ parseBody: (text: string) => unknown; analyse: Analyse }> {
  const from = <M>(path: string) => import(resolve(root, path)) as Promise<M>;
  const request = await from<typeof import("../artifacts/request.js")>("artifacts/request.ts");
  const tolerant = await from<typeof import("../artifacts/tolerant-json.js")>("artifacts/tolerant-json.ts");
  const env = await from<typeof import("../config/env.js")>("config/env.ts");
  const logger = await from<typeof import("../config/logger.js")>("config/logger.ts");
  const deadline = await from<typeof import("../graph/deadline.js")>("graph/deadline.ts");
  const knowledgeBase = await from<typeof import("../knowledge/create.js")>("knowledge/create.ts");
  const cite = await from<typeof import("../nodes/advise/cite.js")>("nodes/advise/cite.ts");
  const groups = await from<typeof import("../nodes/advise/groups.js")>("nodes/advise/groups.ts");
  const plan = await from<typeof import("../nodes/advise/plan.js")>("nodes/advise/plan.ts");
  const template = await from<typeof import("../nodes/advise/template.js")>("nodes/advise/template.ts");
  const agentResult = await from<typeof import("../nodes/agent-result.js")>("nodes/agent-result.ts");
  const examine = await from<typeof import("../nodes/examine.js")>("nodes/examine.ts");
  const findings = await from<typeof import("../nodes/findings.js")>("nodes/findings.ts");
  const evidence = await from<typeof import("../nodes/integrate/evidence.js")>("nodes/integrate/evidence.ts");
  const rules = await from<typeof import("../nodes/integrate/rules/index.js")>("nodes/integrate/rules/index.ts");
  const summary = await from<typeof import("../nodes/integrate/summary.js")>("nodes/integrate/summary.ts");
  const specs: Record<ArtifactKind, AnalyzerSpec<unknown, unknown>> = {
    training: (await from<typeof import("../nodes/training/node.js")>("nodes/training/node.ts")).trainingAnalyzer as AnalyzerSpec<unknown, unknown>,
    dataset: (await from<typeof import("../nodes/dataset/node.js")>("nodes/dataset/node.ts")).datasetAnalyzer as AnalyzerSpec<unknown, unknown>,
    checks: (await from<typeof import("../nodes/checks/node.js")>("nodes/checks/node.ts")).checksAnalyzer as AnalyzerSpec<unknown, unknown>,
    checkpoint: (await from<typeof import("../nodes/checkpoint/node.js")>("nodes/checkpoint/node.ts")).checkpointAnalyzer as AnalyzerSpec<unknown, unknown>,
  };
  const knowledge = knowledgeBase.createKnowledgeBase({ settings: env.loadServiceSettings({}), llmConfig: null });
  const deps: AnalysisDeps = {
    settings: env.loadServiceSettings({}),
    logger: logger.createLogger("silent"),
    knowledge,
    llm: null,
    analyzerSlots: null,
    deadline: new deadline.Deadline(),
    workspace: null,
  };
  // The service passes each agent's signal (its time-out) to the knowledge base: so does this.
  const signal = new AbortController().signal;

  const analyse: Analyse = async (body, spent) => {
    const time = async <T>(stage: string, f: () => T | Promise<T>): Promise<T> => {
      const t = cpuMs();
      const value = await f();
      spent.set(stage, (spent.get(stage) ?? 0) + cpuMs() - t);
      return value;
    };
    const context = await time("decode", () => request.decodeAnalysisRequest(body, "bench"));
    const agentResults: Record<string, AgentResult> = {};
    const facts: Record<string, unknown> = {};
    const outputs: Record<string, unknown> = {};
    for (const artifact of context.artifacts) {
      const spec = specs[artifact.kind];
      const run: AnalyzerRun = {
        input: { artifact, language: context.language, datasetName: context.datasetName, modelName: context.modelName },
        deps,
        signal,
        progress: () => {},
      };
      const examination = await time(artifact.kind, () => examine.examinePayload(spec, artifact.payload, run, false));
      outputs[artifact.kind] = examination;
      if ("unreadable" in examination) continue;
      const cited = await time("citations", () => knowledge.citeFindings(examination.examined.findings, signal));
      agentResults[spec.agentName] = await time("results", () => agentResult.buildAgentResult(spec.agentName, cited, examination.examined.analyzed, null, null));
      facts[artifact.kind] = examination.examined.facts;
    }
    outputs.integrate = await time("integrate", async () => {
      const crossEvidence = evidence.collectCrossEvidence(agentResults, facts as FactsByKind);
      const cross = await knowledge.citeFindings(findings.prioritizeFindings(rules.runCrossRules(crossEvidence)), signal);
      const text = summary.templateSummary(agentResults, cross, {});
      agentResults.CrossArtifactReasoningAgent = agentResult.buildAgentResult("CrossArtifactReasoningAgent", cross, [], null, text);
      return agentResults.CrossArtifactReasoningAgent;
    });
    outputs.advise = await time("advise", async () => {
      const planned = await cite.citeUncited(plan.planRecommendations(agentResults), knowledge, signal);
      const all: Finding[] = findings.prioritizeFindings(Object.values(agentResults).flatMap((r) => r.findings));
      return {
        plan: planned,
        advice: template.templateAdvice(planned),
        groups: groups.groupRecommendations(planned),
        citations: knowledge.describe(plan.citationOrder(all, planned)),
      };
    });
    outputs.results = agentResults;
    return outputs;
  };
  return { parseBody: (text) => tolerant.parseTolerantJson(text), analyse };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const sampleFiles = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".json") && f !== "bad-request.json" && f.includes(args.only))
  .sort();
const trees: Array<[string, Awaited<ReturnType<typeof pipelineOf>>]> = [["this tree", await pipelineOf(ROOT)]];
if (args.against) trees.push([`against ${args.against}`, await pipelineOf(resolve(args.against))]);

if (args.outputs) {
  const [, pipeline] = trees[0]!;
  const requests = sampleFiles.map((f) => ({ name: f.replace(/\.json$/, ""), body: pipeline.parseBody(readFileSync(resolve(SAMPLES, f), "utf8")) }));
  for (const item of await loadRunItems()) for (const r of await runRequests(item)) requests.push({ name: `${item.name}: ${r.label}`, body: r.body });
  for (const { name, body } of requests) console.log(JSON.stringify({ name, outputs: await pipeline.analyse(body, new Map()) }));
  process.exit(0);
}

const repeats = Number(args.repeats);
const rounds = Number(args.rounds);
/** Least CPU ms per analysis, by tree, sample and stage. */
const least = new Map<string, Map<string, number>>();
const loadAtStart = loadavg()[0]!;
for (let r = 0; r < rounds; r++) {
  // Alternated: the tree that goes first changes every round.
  const order = r % 2 === 0 ? trees : [...trees].reverse();
  for (const [tree, pipeline] of order) {
    for (const file of sampleFiles) {
      const body = pipeline.parseBody(readFileSync(resolve(SAMPLES, file), "utf8"));
      const spent = new Map<string, number>();
      for (let i = 0; i < repeats; i++) await pipeline.analyse(body, spent);
      spent.set("total", [...spent.values()].reduce((a, b) => a + b, 0));
      const key = `${file.replace(/\.json$/, "")}\t${tree}`;
      const best = least.get(key) ?? new Map<string, number>();
      for (const [stage, ms] of spent) best.set(stage, Math.min(best.get(stage) ?? Number.POSITIVE_INFINITY, ms / repeats));
      least.set(key, best);
    }
  }
}

console.log(`CPU ms per analysis, least of ${rounds} rounds × ${repeats}; load average ${loadAtStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
console.log(["sample", "tree", ...STAGES, "total"].join("\t"));
for (const key of [...least.keys()].sort()) {
  const best = least.get(key)!;
  console.log([key, ...[...STAGES, "total"].map((s) => best.get(s)?.toFixed(3) ?? "-")].join("\t"));
}
