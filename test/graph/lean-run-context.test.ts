import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { getConfig } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeAnalysisRequest } from "../../artifacts/request.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { buildAnalysisGraph } from "../../graph/build.js";
import { useLeanRunContext } from "../../graph/lean-run-context.js";
import { runAnalysis } from "../../graph/run.js";
import type { KnowledgePort } from "../../knowledge/port.js";
import { passThroughKnowledge, testDeps } from "../support/analysis-deps.js";

/** What an analyzer node sees of LangChain's run context when it cites its findings. */
interface Seen {
  node: unknown;
  /** The async-local store is a LangSmith RunTree (it has postRun), and whether that tree traces. */
  runTree: boolean;
  tracing: unknown;
}

/** Knowledge that records, from inside each analyzer node, the run context LangChain gave it. */
function recordingKnowledge(seen: Seen[]): KnowledgePort {
  const inner = passThroughKnowledge();
  return {
    ...inner,
    citeFindings: async (findings, ...rest) => {
      const store = AsyncLocalStorageProviderSingleton.getInstance().getStore() as { postRun?: unknown; tracingEnabled?: unknown } | undefined;
      seen.push({ node: getConfig().metadata?.langgraph_node, runTree: typeof store?.postRun === "function", tracing: store?.tracingEnabled });
      return inner.citeFindings(findings, ...rest);
    },
  };
}

const sample = () =>
  decodeAnalysisRequest(parseTolerantJson(readFileSync(new URL("../fixtures/samples/full-image-classification.json", import.meta.url), "utf8")), "r");
const graph = buildAnalysisGraph();
const analyse = async (seen: Seen[]) => runAnalysis(graph, sample(), testDeps({ knowledge: recordingKnowledge(seen) }), { workers: 3 });
/** The nodes that cite their findings, sorted. */
const CITING = ["advise", "analyzeCheckpoint", "analyzeChecks", "analyzeDataset", "analyzeTraining", "integrate"];

// One file, run in order: the library's own context first, then the lean one installed (process-wide), then
// LangSmith tracing switched on by its environment variables against a loopback collector.
describe("LangChain run context (graph/lean-run-context.ts)", () => {
  let libraryResponse: unknown;

  it("as the library ships it, builds an untraced LangSmith RunTree around every node only to carry its config", async () => {
    const seen: Seen[] = [];
    libraryResponse = await analyse(seen);
    expect(seen.map((s) => s.node).sort()).toEqual(CITING);
    expect(seen.every((s) => s.runTree && s.tracing === false)).toBe(true);
  });

  it("with the lean context and no tracing variables, builds no RunTree, still carries each node's config, and answers the same", async () => {
    useLeanRunContext();
    useLeanRunContext(); // idempotent: a second runtime in the process changes nothing
    const seen: Seen[] = [];
    const response = await analyse(seen);
    expect(seen.map((s) => s.node).sort()).toEqual(CITING);
    expect(seen.some((s) => s.runTree)).toBe(false);
    expect(response).toEqual(libraryResponse);
  });

  describe("with LANGSMITH_TRACING=true", () => {
    const received: { url: string; body: string }[] = [];
    let collector: Server;
    const saved = { ...process.env };

    beforeAll(async () => {
      // LangSmith's ingest API, played by a loopback server that records what arrives (no network).
      collector = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          received.push({ url: req.url ?? "", body: Buffer.concat(chunks).toString("latin1") });
          res.writeHead(200, { "content-type": "application/json" }).end("{}");
        });
      });
      await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
      Object.assign(process.env, {
        LANGSMITH_TRACING: "true",
        LANGSMITH_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        LANGSMITH_API_KEY: "lsv2-test-key",
        LANGSMITH_PROJECT: "lean-run-context-test",
        // The root run's end waits for its upload, so everything has arrived when the analysis returns.
        LANGCHAIN_CALLBACKS_BACKGROUND: "false",
      });
    });

    afterAll(async () => {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
      await new Promise((resolve) => collector.close(resolve));
    });

    it("each node runs inside LangSmith's traced RunTree and every node's run reaches the LangSmith endpoint", async () => {
      const seen: Seen[] = [];
      const response = await analyse(seen);
      await awaitAllCallbacks();
      expect(seen.map((s) => s.node).sort()).toEqual(CITING);
      expect(seen.every((s) => s.runTree && s.tracing === true)).toBe(true);
      expect(response).toEqual(libraryResponse);
      const uploaded = received.filter((r) => r.url.startsWith("/runs")).map((r) => r.body).join("\n");
      for (const node of ["route", ...CITING]) expect(uploaded).toContain(`"name":"${node}"`);
    });
  });
});
