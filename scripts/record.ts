/**
 * Records an analysis for replay tests: every graph node's input and output (streamMode "tasks") and every LLM
 * request and response, written to test/replays/<request>-<language>.json.
 *
 *   npm run record -- [--fake] [--language <lang>] [--out <file>] <request.json>
 *
 * The model is the one configured by SERVICE_LLM_* (env or SERVICE_ENV_FILE), or with --fake the project's fake
 * OpenAI-compatible server (test/support/fake-openai.ts). The cache is off while recording so every call is on
 * the wire; the other service settings are the defaults, which the replay test rebuilds. No key is recorded.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { decodeAnalysisRequest } from "../artifacts/request.js";
import { parseTolerantJson } from "../artifacts/tolerant-json.js";
import { loadServiceSettings, readRawEnv } from "../config/env.js";
import { createLogger } from "../config/logger.js";
import type { AnalysisDeps } from "../graph/context.js";
import { Deadline } from "../graph/deadline.js";
import { type LlmConfig, loadLlmConfig } from "../llm/config.js";
import { createLlmPort } from "../llm/openai-port.js";
import { REPLAY_FORMAT, type RecordedTask, type ReplayFixture, recordingFetch, serializeFixture, type WireExchange } from "../llm/replay.js";
import { createServiceRuntime } from "../server/runtime.js";
import { modelAnswer, startFakeOpenAI } from "../test/support/fake-openai.js";

const USAGE = "usage: npm run record -- [--fake] [--language <lang>] [--out <file>] <request.json>";

/** The fake model's configuration: the spec §2.3 defaults for temperature and max_tokens. */
const FAKE_MODEL: Omit<LlmConfig, "baseUrl"> = { apiKey: null, modelName: "fake-model", temperature: 0.7, maxTokens: 8000, cache: false, trackUsage: true };

const requestKey = (e: WireExchange) => createHash("sha256").update(JSON.stringify(e.request)).digest("hex");

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { fake: { type: "boolean", default: false }, language: { type: "string" }, out: { type: "string" } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new Error(USAGE);
  const body = parseTolerantJson(readFileSync(file, "utf8")) as Record<string, unknown>;
  if (values.language) body.language = values.language;

  const raw = readRawEnv();
  const fake = values.fake ? await startFakeOpenAI(modelAnswer) : null;
  try {
    const loaded = fake ? { ...FAKE_MODEL, baseUrl: fake.baseURL } : loadLlmConfig(raw).config;
    if (!loaded) throw new Error(`no model configured: set SERVICE_LLM_MODEL_NAME (and SERVICE_LLM_*) or pass --fake\n${USAGE}`);
    const config: LlmConfig = { ...loaded, cache: false };
    const llmSettings = loadServiceSettings(raw);
    const logger = createLogger("warn");
    const exchanges: WireExchange[] = [];
    const port = createLlmPort(config, {
      timeoutMs: llmSettings.SERVICE_LLM_TIMEOUT_MS,
      maxRetries: llmSettings.SERVICE_LLM_MAX_RETRIES,
      logger,
      fetch: recordingFetch(fetch, exchanges),
    });
    const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "warn" }, { llm: port, logger });
    const context = decodeAnalysisRequest(body, "record");
    const deps: AnalysisDeps = { settings: runtime.settings, logger, knowledge: runtime.knowledge, llm: port, analyzerSlots: null, deadline: new Deadline(), workspace: null };

    // Tasks in the order they started (deterministic: Sends follow the artifacts), whatever order they finished in.
    const tasks: RecordedTask[] = [];
    const byId = new Map<string, RecordedTask>();
    const stream = await runtime.graph.stream({ context }, { context: deps as never, streamMode: "tasks", maxConcurrency: Math.max(2, runtime.settings.SERVICE_ANALYZER_WORKERS) });
    for await (const event of stream) {
      if ("input" in event) {
        const task: RecordedTask = { node: event.name, input: event.input, result: null, error: null };
        byId.set(event.id, task);
        tasks.push(task);
      } else {
        const task = byId.get(event.id);
        if (task) Object.assign(task, { result: event.result, error: event.error ?? null });
      }
    }

    const fixture: ReplayFixture = {
      format: REPLAY_FORMAT,
      made_with: `npm run record -- ${values.fake ? "--fake " : ""}--language ${context.language.code} ${basename(file)}`,
      model: { name: config.modelName, temperature: config.temperature, max_tokens: config.maxTokens },
      tasks,
      // Parallel analyzers call in any order: sort by request (stable, so repeats of one request keep theirs).
      llm: [...exchanges].sort((a, b) => requestKey(a).localeCompare(requestKey(b))),
    };
    const out = resolve(values.out ?? `test/replays/${basename(file, ".json")}-${context.language.code}.json`);
    writeFileSync(out, `${serializeFixture(fixture)}\n`);
    process.stdout.write(`${out}: ${tasks.length} node runs, ${exchanges.length} LLM exchanges\n`);
  } finally {
    await fake?.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`record failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
