import { readdirSync, readFileSync } from "node:fs";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { AnalysisContext, ArtifactInput } from "../../../artifacts/context.js";
import { decodeAnalysisRequest } from "../../../artifacts/request.js";
import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { trainingHistory, trainingHistoryRequest } from "../../../bench/data/training-history.js";
import { loadServiceSettings } from "../../../config/env.js";
import type { AgentResult } from "../../../domain/result.js";
import type { AnalysisDeps } from "../../../graph/context.js";
import type { AnalyzerInput } from "../../../graph/state.js";
import { runAnalyzer } from "../../../nodes/analyzer.js";
import type { AnalyzerRun, AnalyzerSpec } from "../../../nodes/analyzer-spec.js";
import { checksAnalyzer } from "../../../nodes/checks/node.js";
import { datasetAnalyzer } from "../../../nodes/dataset/node.js";
import { examinePayload } from "../../../nodes/examine.js";
import { examineArtifact, OFF_LOOP_KINDS, WORKER_EXAMINE_MIN_BYTES } from "../../../nodes/examine-off-loop.js";
import { trainingAnalyzer } from "../../../nodes/training/node.js";
import { testDeps } from "../../support/analysis-deps.js";
import { checkReportItems } from "../../support/real-corpus.js";
import { loadRunItems, runRequests } from "../../support/run-folders.js";

const SPECS = { training: trainingAnalyzer, dataset: datasetAnalyzer, checks: checksAnalyzer } as const;
const SAMPLES = new URL("../../fixtures/samples/", import.meta.url);

function inputOf(context: AnalysisContext, artifact: ArtifactInput): AnalyzerInput {
  return { artifact, language: context.language, datasetName: context.datasetName, modelName: context.modelName };
}

function runOf(input: AnalyzerInput, deps: AnalysisDeps = testDeps()): AnalyzerRun {
  return { input, deps, signal: new AbortController().signal, progress: () => {} };
}

/** Every artifact of a request body that a worker may examine, with the spec that examines it. */
function offLoopArtifacts(name: string, body: unknown): Array<{ label: string; spec: AnalyzerSpec<unknown, unknown>; run: AnalyzerRun }> {
  const context = decodeAnalysisRequest(body, name);
  return context.artifacts.flatMap((artifact) => {
    const kind = artifact.kind;
    if (kind !== "training" && kind !== "dataset" && kind !== "checks") return [];
    return [{ label: `${name} ${artifact.field}`, spec: SPECS[kind] as AnalyzerSpec<unknown, unknown>, run: runOf(inputOf(context, artifact)) }];
  });
}

/** The same artifact examined on the event loop and on a worker thread, digest included. */
async function bothWays(spec: AnalyzerSpec<unknown, unknown>, run: AnalyzerRun) {
  const inline = await examineArtifact(spec, run, true, Number.POSITIVE_INFINITY);
  const pooled = await examineArtifact(spec, run, true, 0);
  return { inline, pooled };
}

const sampleBodies = () =>
  readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".json") && f !== "bad-request.json")
    .sort()
    .map((f) => ({ name: f, body: parseTolerantJson(readFileSync(new URL(f, SAMPLES), "utf8")) }));

describe("the deterministic stage on the worker pool", () => {
  it("examines every sample's training, dataset and checks artifacts exactly as on the event loop", { timeout: 60_000 }, async () => {
    const artifacts = sampleBodies().flatMap(({ name, body }) => offLoopArtifacts(name, body));
    expect(new Set(artifacts.map((a) => a.spec.kind))).toEqual(new Set(OFF_LOOP_KINDS));
    for (const { label, spec, run } of artifacts) {
      const { inline, pooled } = await bothWays(spec, run);
      expect(pooled, label).toEqual(inline);
      expect("examined" in inline, label).toBe(true);
    }
  });

  it("examines every request of the real training-run corpus exactly as on the event loop", { timeout: 120_000 }, async () => {
    let compared = 0;
    for (const item of await loadRunItems()) {
      for (const request of await runRequests(item)) {
        for (const { label, spec, run } of offLoopArtifacts(`${item.name}: ${request.label}`, request.body)) {
          const { inline, pooled } = await bothWays(spec, run);
          expect(pooled, label).toEqual(inline);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it("examines every item of the real check-report corpus exactly as on the event loop", { timeout: 60_000 }, async () => {
    for (const item of checkReportItems()) {
      for (const { label, spec, run } of offLoopArtifacts(item.name, item.body)) {
        const { inline, pooled } = await bothWays(spec, run);
        expect(pooled, label).toEqual(inline);
      }
    }
  });

  it("reports an unreadable artifact the same way from a worker", async () => {
    const [broken] = offLoopArtifacts("broken", { training_artifacts: { metrics: { format: "lightning_csv", content: "" } } });
    const { inline, pooled } = await bothWays(broken!.spec, broken!.run);
    expect(inline).toMatchObject({ unreadable: expect.any(String) });
    expect(pooled).toEqual(inline);
  });

  it("runs a large history's analysis on a worker, leaves the request's payload as it was, and answers as the inline stage does", { timeout: 60_000 }, async () => {
    const body = trainingHistoryRequest(100_000);
    const context = decodeAnalysisRequest(body, "large");
    const artifact = context.artifacts[0]!;
    const metrics = (artifact.payload.metrics as Record<string, number[]>).train_loss!;
    const before = metrics.slice();
    const update = await runAnalyzer(trainingAnalyzer, inputOf(context, artifact), { context: testDeps() } as LangGraphRunnableConfig);
    // The payload is far above the threshold, so this came from a worker; the request still holds its arrays.
    expect(JSON.stringify(artifact.payload).length).toBeGreaterThan(WORKER_EXAMINE_MIN_BYTES);
    expect((artifact.payload.metrics as Record<string, number[]>).train_loss).toBe(metrics);
    expect(metrics).toEqual(before);
    const inline = await examinePayload(trainingAnalyzer, artifact.payload, runOf(inputOf(context, artifact)), false);
    if (!("examined" in inline)) throw new Error(inline.unreadable);
    const result = (update.agentResults as Record<string, AgentResult>)[trainingAnalyzer.agentName]!;
    expect(result.findings).toEqual(inline.examined.findings);
    expect(result.analyzed_artifacts).toEqual(inline.examined.analyzed);
    expect(update.facts).toEqual({ training: inline.examined.facts });
    expect(result.error_message).toBeNull();
  });

  it("examines long metric arrays with nulls, shared series and a column table on a worker exactly as on the event loop", { timeout: 60_000 }, async () => {
    const history = trainingHistory(5000);
    const withNulls = history.val_loss.map((v, i) => (i % 50 === 7 ? null : v));
    const bodies = {
      // Columns with nulls, and two names of one series (val_loss, eval_loss) each a column.
      arrays: { training_artifacts: { metrics: { ...history, val_loss: withNulls, eval_loss: history.val_loss.slice(0, 2000) } } },
      // A step axis makes it a column table: its reader takes arrays, so the worker rebuilds them.
      table: { training_artifacts: { metrics: { step: history.train_loss.map((_, i) => 10 * i), train_loss: history.train_loss, val_loss: withNulls } } },
    };
    for (const [name, body] of Object.entries(bodies)) {
      for (const { label, spec, run } of offLoopArtifacts(name, body)) {
        const { inline, pooled } = await bothWays(spec, run);
        expect("examined" in inline, label).toBe(true);
        expect(pooled, label).toEqual(inline);
      }
    }
  });

  it("ends the agent at its time-out while the worker still examines, with the agent's error and the rest of the run intact", { timeout: 60_000 }, async () => {
    const context = decodeAnalysisRequest(trainingHistoryRequest(1_000_000), "slow");
    const artifact = context.artifacts[0]!;
    // 6 × 10⁶ points take far longer than 100 ms to examine anywhere (the smallest agent time-out).
    const deps = testDeps({ settings: loadServiceSettings({ SERVICE_AGENT_TIMEOUT_MS: "100" }) });
    const update = await runAnalyzer(trainingAnalyzer, inputOf(context, artifact), { context: deps } as LangGraphRunnableConfig);
    const result = (update.agentResults as Record<string, AgentResult>)[trainingAnalyzer.agentName]!;
    expect(result.error_message).toBe("timed out after 100 ms (SERVICE_AGENT_TIMEOUT_MS)");
    expect(result.findings).toEqual([]);
    expect(update.errors).toEqual({ [trainingAnalyzer.agentName]: "timed out after 100 ms (SERVICE_AGENT_TIMEOUT_MS)" });
    // The pool is free again for the next analysis.
    const next = await runAnalyzer(trainingAnalyzer, inputOf(context, artifact), { context: testDeps() } as LangGraphRunnableConfig);
    expect((next.agentResults as Record<string, AgentResult>)[trainingAnalyzer.agentName]!.error_message).toBeNull();
  });
});
