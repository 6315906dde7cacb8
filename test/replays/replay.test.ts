import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../config/logger.js";
import type { AnalysisDeps } from "../../graph/context.js";
import { Deadline } from "../../graph/deadline.js";
import { createLlmPort } from "../../llm/openai-port.js";
import { parseFixture, type RecordedTask, type ReplayFixture, replayFetch, serializeFixture } from "../../llm/replay.js";
import { createServiceRuntime } from "../../server/runtime.js";

// Recordings made by scripts/record.ts (see docs/llm.md "Record and replay"); re-record when a change to
// detectors, prompts or knowledge is meant to change what a node returns.
const DIR = import.meta.dirname;
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".json")).sort();
const LLM_NODES = new Set(["analyzeDataset", "analyzeChecks", "analyzeTraining", "analyzeCheckpoint", "integrate", "advise"]);

const logger = createLogger("silent");
// The recorder runs with the default service settings; so does the replay.
const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "silent" }, { llm: null, logger });

/** Deps whose model answers only from the recording, on the wire, through the real ChatOpenAI client. */
function replayDeps(fixture: ReplayFixture): AnalysisDeps {
  const llm = createLlmPort(
    { apiKey: null, baseUrl: "http://replay.invalid/v1", modelName: fixture.model.name, temperature: fixture.model.temperature, maxTokens: fixture.model.max_tokens, cache: false, trackUsage: false },
    { timeoutMs: 10_000, maxRetries: 0, logger, fetch: replayFetch(fixture.llm) },
  );
  return { settings: runtime.settings, logger, knowledge: runtime.knowledge, llm, analyzerSlots: null, deadline: new Deadline(), workspace: null };
}

/** What the fixture can hold: JSON, with undefined fields dropped. */
const asRecorded = (value: unknown) => parseFixture(serializeFixture({ format: "analysis-replay/1", made_with: "", model: { name: "", temperature: 0, max_tokens: 0 }, tasks: [{ node: "", input: null, result: value, error: null }], llm: [] })).tasks[0]!.result;

const replayable = (t: RecordedTask) => t.node in runtime.graph.nodes && t.error === null;

it("has at least three recordings", () => {
  expect(FILES.length).toBeGreaterThanOrEqual(3);
});

describe.each(FILES)("replay %s", (file) => {
  const fixture = parseFixture(readFileSync(join(DIR, file), "utf8"));

  it("holds every node of the analysis and one LLM exchange per LLM node that ran", () => {
    const nodes = fixture.tasks.filter(replayable).map((t) => t.node);
    expect(nodes).toEqual(expect.arrayContaining(["route", "integrate", "advise"]));
    expect(fixture.llm.length).toBeGreaterThanOrEqual(nodes.filter((n) => LLM_NODES.has(n)).length);
    expect(JSON.stringify(fixture.llm)).not.toMatch(/authorization|api[_-]?key/i);
  });

  it.each(fixture.tasks.filter(replayable).map((t, i) => [`${i}:${t.node}`, t] as const))("re-runs %s to the recorded output", async (_name, task) => {
    const node = runtime.graph.nodes[task.node as keyof typeof runtime.graph.nodes]!;
    const output = await node.invoke(task.input as never, { context: replayDeps(fixture) } as never);
    expect(asRecorded(output)).toEqual(task.result);
  });
});
