// Worker for framework_floor: what the frameworks an analysis must run through cost with nothing of ours in
// them, under plain node from the production build (dist/, built by the suite), as `npm start` runs them.
//   - the analysis graph (graph/build.ts: route → four analyzers as Sends, 3 at a time → integrate → advise) with
//     nodes that do nothing but write what the real nodes write, each invoke as runAnalysis invokes it;
//   - LangGraph's smallest graph (one node), for scale;
//   - one structured model call through the service's own client (llm/chat-model.ts, llm/structured.ts) with a
//     one-line prompt and a one-field answer, to the OpenAI-compatible server at argv[2], which answers at once.
// argv: <base URL of the model server> <rounds> <invokes per round> <calls per round>. Sends one FloorRun
// (bench/suites/framework-floor.ts) over IPC: per measure, the median over rounds of wall and CPU ms per run.
import { END, START, StateGraph } from "@langchain/langgraph";
import { z } from "zod";

const built = (path) => import(new URL(`../../dist/${path}`, import.meta.url).href);
const { ANALYSIS_NODES, buildAnalysisGraph } = await built("graph/build.js");
const { AnalysisState } = await built("graph/state.js");
const { useLeanRunContext } = await built("graph/lean-run-context.js");
const { createChatModel } = await built("llm/chat-model.js");
const { invokeStructured } = await built("llm/structured.js");
const { AGENT_OF_NODE } = await built("nodes/names.js");

const [baseUrl, rounds, invokes, calls] = [process.argv[2], ...process.argv.slice(3, 6).map(Number)];
if (!baseUrl || !(rounds > 0) || !(invokes > 0) || !(calls > 0)) {
  throw new Error("usage: framework-floor.mjs <model base URL> <rounds> <invokes per round> <calls per round>");
}

// The service installs it at start-up (server/runtime.ts); the floor is the graph as the service runs it.
useLeanRunContext();

const result = (agent) => ({ agent_name: agent, findings: [], analyzed_artifacts: [], error: null, summary: null });
const analyzer = (node) => async () => ({ agentResults: { [AGENT_OF_NODE[node]]: result(AGENT_OF_NODE[node]) }, facts: {} });
const noOps = {
  route: ANALYSIS_NODES.route,
  analyzeDataset: analyzer("analyzeDataset"),
  analyzeChecks: analyzer("analyzeChecks"),
  analyzeTraining: analyzer("analyzeTraining"),
  analyzeCheckpoint: analyzer("analyzeCheckpoint"),
  integrate: async () => ({ agentResults: { [AGENT_OF_NODE.integrate]: result(AGENT_OF_NODE.integrate) }, summary: "", errors: {} }),
  advise: async () => ({ agentResults: { [AGENT_OF_NODE.advise]: result(AGENT_OF_NODE.advise) }, additionalOutputs: { recommendations: [] }, errors: {} }),
};
const analysisGraph = buildAnalysisGraph(noOps);
const oneNodeGraph = new StateGraph(AnalysisState)
  .addNode("only", async () => ({ summary: "" }))
  .addEdge(START, "only")
  .addEdge("only", END)
  .compile();

// Routing reads each artifact's kind and the request-wide settings, nothing else (nodes/route.ts).
const context = {
  artifacts: ["dataset", "checks", "training", "checkpoint"].map((kind) => ({ kind, field: kind })),
  language: { code: "en", name: "English" },
  datasetName: null,
  modelName: null,
};
// As runAnalysis invokes the graph: the deps as context, the request's signal, 3 analyzers at a time.
const invokeOnce = (graph) => () => graph.invoke({ context }, { context: {}, signal: new AbortController().signal, maxConcurrency: 3 });

const model = createChatModel(
  { modelName: "floor-model", baseUrl, apiKey: "floor-placeholder-key", temperature: 0.2, maxTokens: 100, cache: false, trackUsage: false },
  { maxRetries: 0, timeoutMs: 10_000, cache: null },
);
const Answer = z.object({ ok: z.boolean() });
const messages = [
  { role: "system", content: "Answer with the JSON object the schema asks for." },
  { role: "user", content: '{"question":"ok?"}' },
];
const callOnce = () => invokeStructured(model, Answer, "floor_answer", messages, {});

const cpuMs = (start) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median over rounds of the wall and CPU time per run, after one untimed round (V8 compiles the path in it). */
async function timed(run, perRound) {
  const wall = [];
  const cpu = [];
  for (let round = 0; round <= rounds; round++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < perRound; i++) await run();
    if (round === 0) continue;
    wall.push((performance.now() - start) / perRound);
    cpu.push(cpuMs(cpuStart) / perRound);
  }
  return { wall_ms: median(wall), cpu_ms: median(cpu), rounds: wall.map((w, i) => ({ wall_ms: w, cpu_ms: cpu[i] })) };
}

const answered = await callOnce();
if (answered.ok !== true) throw new Error(`the model server's answer was not read: ${JSON.stringify(answered)}`);
const state = await invokeOnce(analysisGraph)();
const agents = Object.keys(state.agentResults).length;
if (agents !== 6) throw new Error(`the no-op analysis graph ran ${agents} agents, expected 6`);

// The calls first: a kept-alive connection left idle past the server's keep-alive time-out while the graphs run
// would be closed under the next call (the service's retries cover that; these calls have none, so none is hidden).
const modelCall = await timed(callOnce, calls);
process.send({
  analysisGraph: await timed(invokeOnce(analysisGraph), invokes),
  oneNodeGraph: await timed(invokeOnce(oneNodeGraph), invokes),
  modelCall,
});
