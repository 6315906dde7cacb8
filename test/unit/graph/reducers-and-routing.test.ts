import { Send } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { AnalysisContext, ArtifactInput } from "../../../artifacts/context.js";
import { mergeByKey } from "../../../graph/state.js";
import { ANALYZER_NODES } from "../../../nodes/names.js";
import { routeArtifacts } from "../../../nodes/route.js";

const artifact = (kind: ArtifactInput["kind"]): ArtifactInput => ({ kind, field: `${kind}_artifacts`, payload: { x: kind }, origin: "inline" });
const context = (artifacts: ArtifactInput[]): AnalysisContext => ({
  requestId: "r", datasetName: "d", language: { code: "fr", name: "French" }, modelName: null, strict: false, trace: false, mlflow: null, artifacts,
});

describe("mergeByKey", () => {
  it("gives the same result whatever order the branches finish in", () => {
    const a = { B: 1 }, b = { A: 2 }, c = { C: 3 };
    const one = mergeByKey(mergeByKey(a, b), c);
    const two = mergeByKey(mergeByKey(c, a), b);
    expect(JSON.stringify(one)).toBe(JSON.stringify(two));
    expect(Object.keys(one)).toEqual(["A", "B", "C"]);
  });

  it("lets a later write to the same key win", () => {
    expect(mergeByKey({ a: 1 }, { a: 2 })).toEqual({ a: 2 });
  });
});

describe("routeArtifacts", () => {
  it("sends each artifact to its analyzer, with only that artifact and the request-wide settings", () => {
    const sends = routeArtifacts({ context: context([artifact("training"), artifact("dataset"), artifact("checkpoint"), artifact("checks")]) });
    expect(sends.every((s) => s instanceof Send)).toBe(true);
    expect(sends.map((s) => s.node)).toEqual(["analyzeTraining", "analyzeDataset", "analyzeCheckpoint", "analyzeChecks"]);
    expect(sends[0]!.args).toEqual({ artifact: artifact("training"), language: { code: "fr", name: "French" }, datasetName: "d", modelName: null });
    expect(Object.keys(sends[0]!.args)).not.toContain("artifacts");
  });

  it("passes the artifact by reference: no copy of its rows per Send (graph/send.ts)", () => {
    const training = artifact("training");
    const [send] = routeArtifacts({ context: context([training]) });
    expect(send!.args.artifact).toBe(training);
  });

  it("only ever targets analyzer nodes", () => {
    const sends = routeArtifacts({ context: context([artifact("checks")]) });
    for (const s of sends) expect(ANALYZER_NODES).toContain(s.node);
  });

  it("rejects a kind no analyzer supports", () => {
    const bogus = { ...artifact("dataset"), kind: "audio" } as unknown as ArtifactInput;
    expect(() => routeArtifacts({ context: context([bogus]) })).toThrow(/no analyzer supports artifacts of type "audio"/);
  });
});
