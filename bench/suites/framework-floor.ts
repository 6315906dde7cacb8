import { join } from "node:path";
import { startFakeOpenAI } from "../../test/support/fake-openai.js";
import { type Load, load } from "../lib/load.js";
import type { BenchProfile } from "../lib/options.js";
import { runWorker } from "../lib/processes.js";
import { type BenchResult, ratioOf } from "../lib/result.js";
import { readSampleRequest } from "../lib/sample.js";
import { buildOnce, childEnv, freePort, OUT_DIR, ROOT, withService } from "../lib/service.js";
import { CRITICAL_CALLS } from "./parallel-efficiency.js";

/** Median wall and CPU ms per run of one measure of bench/workers/framework-floor.mjs. */
interface Timed {
  wall_ms: number;
  cpu_ms: number;
  rounds: Array<{ wall_ms: number; cpu_ms: number }>;
}

/** What the worker sends back. */
interface FloorRun {
  analysisGraph: Timed;
  oneNodeGraph: Timed;
  modelCall: Timed;
}

const INVOKES_PER_ROUND = 300;
const CALLS_PER_ROUND = 100;
const CORES = 2;

/** The echo baseline of `http_overhead` (same host, same body): its p50 alone and its CPU per answer at c=10. */
async function measureEcho(profile: BenchProfile, body: string): Promise<{ c1: Load; cpuPerAnswerC10: number | null }> {
  const echoPort = await freePort();
  return withService(
    { name: "framework-floor-echo", entry: "bench/hosts/service-with-echo.mjs", launcher: "node", args: [String(echoPort)] },
    async (service) => {
      const echo = `http://127.0.0.1:${echoPort}/echo`;
      await load(echo, body, 1, 1);
      const c1 = await load(echo, body, 1, profile.loadSeconds);
      const before = service.cpuMs();
      const c10 = await load(echo, body, 10, profile.loadSeconds);
      const after = service.cpuMs();
      return { c1, cpuPerAnswerC10: before === null || after === null ? null : (after - before) / c10.ok };
    },
  );
}

/** The frameworks' own cost, measured with nothing of ours in them (bench/workers/framework-floor.mjs). */
async function measureFloor(profile: BenchProfile): Promise<FloorRun> {
  const fake = await startFakeOpenAI(() => ({ content: '{"ok":true}' }));
  try {
    return await runWorker<FloorRun>(
      join(ROOT, "bench/workers/framework-floor.mjs"),
      [fake.baseURL, String(profile.floorRounds), String(INVOKES_PER_ROUND), String(CALLS_PER_ROUND)],
      { cwd: ROOT, env: childEnv({}), logFile: join(OUT_DIR, "framework-floor.log"), timeoutMs: 300_000, launcher: "node" },
    );
  } finally {
    await fake.close();
  }
}

/**
 * framework_floor (issue 18): the least an analysis can cost on this machine, whatever our code does: the
 * analysis graph with nodes that do nothing, one structured model call through the service's client, and the
 * echo baseline's HTTP. Each goal of http_overhead and parallel_efficiency is set beside the floor it sits on: a
 * goal below its floor cannot be met here by any change to the analysis itself.
 */
export async function benchFrameworkFloor(profile: BenchProfile): Promise<BenchResult> {
  buildOnce();
  const body = readSampleRequest();
  const echo = await measureEcho(profile, body);
  const floor = await measureFloor(profile);
  const { analysisGraph: graph, oneNodeGraph: oneNode, modelCall: call } = floor;
  const p50Floor = echo.c1.p50 + graph.wall_ms;
  const cpuFloor = echo.cpuPerAnswerC10 === null ? null : echo.cpuPerAnswerC10 + graph.cpu_ms;
  // Both cores busy with nothing but the echo's HTTP and the graph: no design that keeps the graph goes faster.
  const rpsCeiling = cpuFloor === null ? null : (CORES * 1000) / cpuFloor;
  const critical = CRITICAL_CALLS * profile.llmDelayMs;
  const efficiencyFloor = (critical + echo.c1.p50 + graph.wall_ms + CRITICAL_CALLS * call.wall_ms) / critical;
  return {
    name: "framework_floor",
    value: p50Floor,
    unit: "ms",
    baseline: echo.c1.p50,
    ratio: ratioOf(p50Floor, echo.c1.p50),
    headline: `information: the least an analysis costs in the frameworks alone; c=10 ceiling ${rpsCeiling === null ? "—" : Math.round(rpsCeiling)}/s, efficiency floor ${efficiencyFloor.toFixed(3)}`,
    description:
      "the least an offline analysis of the sample can take at c=1 on this machine with the frameworks it must run through: the echo baseline's p50 (http_overhead's, same host and body) plus one invoke of the analysis graph (graph/build.ts, route → four analyzers as Sends, 3 at a time → integrate → advise) whose nodes do nothing, under plain node from dist/ with the service's lean run context",
    baselineDescription: "the echo baseline's p50 at concurrency 1 (an Express handler that parses and echoes the sample body)",
    note: `Medians of ${profile.floorRounds} rounds (${INVOKES_PER_ROUND} invokes, ${CALLS_PER_ROUND} calls each) after an untimed one. The model call is the service's client (llm/chat-model.ts, llm/structured.ts) with a one-line prompt and a one-field answer, against the project's fake OpenAI-compatible server in the bench process answering at once. The ceiling assumes both cores do nothing but the echo's HTTP and the graph; the efficiency floor adds to the critical path ${CRITICAL_CALLS}L (L = ${profile.llmDelayMs} ms) the echo's p50, one graph invoke and ${CRITICAL_CALLS} such calls.`,
    rows: [
      { metric: "analysis graph, nodes doing nothing: wall per invoke", value: graph.wall_ms, unit: "ms", baseline: oneNode.wall_ms, ratio: ratioOf(graph.wall_ms, oneNode.wall_ms) },
      { metric: "analysis graph, nodes doing nothing: CPU per invoke", value: graph.cpu_ms, unit: "ms", baseline: oneNode.cpu_ms, ratio: ratioOf(graph.cpu_ms, oneNode.cpu_ms) },
      { metric: "LangGraph graph of one node: wall per invoke", value: oneNode.wall_ms, unit: "ms" },
      { metric: "one structured model call, answered at once: wall", value: call.wall_ms, unit: "ms" },
      { metric: "one structured model call, answered at once: client CPU", value: call.cpu_ms, unit: "ms" },
      { metric: "echo baseline: p50 at concurrency 1", value: echo.c1.p50, unit: "ms" },
      { metric: "echo baseline: CPU per answer at concurrency 10", value: echo.cpuPerAnswerC10, unit: "ms" },
      { metric: "floor of http_overhead's p50 at c=1 (echo p50 + graph)", value: p50Floor, unit: "ms" },
      {
        metric: `ceiling of http_overhead at c=10 on ${CORES} cores (${CORES} × 1000 ÷ (echo CPU + graph CPU))`,
        value: rpsCeiling,
        unit: "req/s",
      },
      { metric: "floor of parallel_efficiency", value: efficiencyFloor, unit: "" },
    ],
    detail: { floor, echo_c1: echo.c1, echo_cpu_ms_per_answer_c10: echo.cpuPerAnswerC10, llm_delay_ms: profile.llmDelayMs },
  };
}
