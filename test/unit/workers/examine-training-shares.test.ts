import { describe, expect, it } from "vitest";
import { decodeAnalysisRequest } from "../../../artifacts/request.js";
import type { AnalyzerSpec } from "../../../nodes/analyzer.js";
import { examinePayload } from "../../../nodes/examine.js";
import { examineArtifact } from "../../../nodes/examine-off-loop.js";
import { examineTrainingInShares } from "../../../nodes/training/examine-shares.js";
import { trainingAnalyzer } from "../../../nodes/training/node.js";
import { parseJsonBody } from "../../../server/json-body.js";
import { packNumberColumns } from "../../../workers/number-columns.js";
import { testDeps } from "../../support/analysis-deps.js";
import { largeHistoryCases } from "../../support/large-histories.js";

/** A request body in shared memory, as server/intake.ts receives one with a declared length: decoded into shared columns. */
async function decodedInSharedMemory(trainingArtifacts: Record<string, unknown>) {
  const text = Buffer.from(JSON.stringify({ training_artifacts: trainingArtifacts }));
  const body = Buffer.from(new SharedArrayBuffer(text.length));
  text.copy(body);
  const context = decodeAnalysisRequest(await parseJsonBody(body), "shares");
  const artifact = context.artifacts[0]!;
  const input = { artifact, language: context.language, datasetName: context.datasetName, modelName: context.modelName };
  return { artifact, run: { input, deps: testDeps(), signal: new AbortController().signal, progress: () => {} } };
}

// The metric-array histories of large-histories.test.ts (healthy, troubled, still running): their columns are shared.
const ARRAY_CASES = largeHistoryCases().filter(([name]) => name.includes("arrays") || name.includes("still running"));

describe("a large training history examined by every pool thread at once", () => {
  it.each(ARRAY_CASES)("%s: the same findings, in the same order, facts and description as one thread gives", { timeout: 120_000 }, async (_name, history) => {
    const { artifact, run } = await decodedInSharedMemory(history());
    const packed = packNumberColumns(artifact.payload);
    // Every long array came as a column in shared memory: nothing to transfer, so the threads can share it.
    expect(packed.columns.length).toBeGreaterThan(0);
    expect(packed.transfer).toEqual([]);
    const source = { input: { artifact: { field: artifact.field }, datasetName: run.input.datasetName } };
    const shared = await examineTrainingInShares({ value: packed.value, columns: packed.columns }, source);
    const inline = await examinePayload(trainingAnalyzer, artifact.payload, run, false);
    expect(shared).toEqual(inline);
    // And the analyzer's own routing of such a payload gives it too.
    expect(await examineArtifact(trainingAnalyzer as AnalyzerSpec<unknown, unknown>, run, false, "pool")).toEqual(inline);
  });

  it("reports a history its parser refuses once, with the parser's message", async () => {
    const { artifact, run } = await decodedInSharedMemory({ metrics: { format: "lightning_csv", content: "" } });
    const inline = await examinePayload(trainingAnalyzer, artifact.payload, run, false);
    expect(inline).toMatchObject({ unreadable: expect.any(String) });
    const packed = packNumberColumns(artifact.payload);
    const source = { input: { artifact: { field: artifact.field }, datasetName: run.input.datasetName } };
    expect(await examineTrainingInShares({ value: packed.value, columns: packed.columns }, source)).toEqual(inline);
  });
});
