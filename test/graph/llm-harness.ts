import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeAnalysisRequest } from "../../artifacts/request.js";
import { parseTolerantJson } from "../../artifacts/tolerant-json.js";
import { loadServiceSettings, type RawEnv } from "../../config/env.js";
import { createLogger } from "../../config/logger.js";
import { buildAnalysisGraph } from "../../graph/build.js";
import type { AnalysisDeps } from "../../graph/context.js";
import { Deadline } from "../../graph/deadline.js";
import type { AnalysisResponse } from "../../graph/response.js";
import { runAnalysis } from "../../graph/run.js";
import { createKnowledgeBase } from "../../knowledge/create.js";
import type { LlmConfig } from "../../llm/config.js";
import { createLlmPort, type OpenAiLlmPort } from "../../llm/openai-port.js";
import { type FakeOpenAI, type FakeScript, startFakeOpenAI } from "../support/fake-openai.js";

export const SAMPLES = join(import.meta.dirname, "../fixtures/samples");

/** A sample request body, with the language replaced when one is given. */
export function sampleRequest(name: string, language?: string): Record<string, unknown> {
  const body = parseTolerantJson(readFileSync(`${SAMPLES}/${name}`, "utf8")) as Record<string, unknown>;
  return language === undefined ? body : { ...body, language };
}

export interface LlmHarness {
  fake: FakeOpenAI | null;
  port: OpenAiLlmPort | null;
  /** Runs one analysis through buildAnalysisGraph + runAnalysis. */
  analyze(body: Record<string, unknown>): Promise<AnalysisResponse>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Service settings (SERVICE_LLM_TIMEOUT_MS, SERVICE_LLM_MAX_RETRIES, …) as environment text. */
  env?: RawEnv;
  llm?: Partial<LlmConfig>;
}

const knowledge = createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null });

/**
 * The analysis graph with the real knowledge base and, when `script` is given, the real ChatOpenAI client on
 * a fake OpenAI-compatible server answering with it; without a script, deterministic mode.
 */
export async function startLlmHarness(script: FakeScript | null, options: HarnessOptions = {}): Promise<LlmHarness> {
  const settings = loadServiceSettings({ SERVICE_LOG_LEVEL: "silent", ...options.env });
  const logger = createLogger("silent");
  const fake = script ? await startFakeOpenAI(script) : null;
  const port = fake
    ? createLlmPort(
        { apiKey: "sk-test", baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0.7, maxTokens: 8000, cache: true, trackUsage: true, ...options.llm },
        { timeoutMs: settings.SERVICE_LLM_TIMEOUT_MS, maxRetries: settings.SERVICE_LLM_MAX_RETRIES, logger },
      )
    : null;
  const graph = buildAnalysisGraph();
  let requests = 0;
  return {
    fake,
    port,
    analyze: (body) => {
      const context = decodeAnalysisRequest(body, `test-${++requests}`);
      const deps: AnalysisDeps = { settings, logger, knowledge, llm: port, analyzerSlots: null, deadline: new Deadline(), workspace: null };
      return runAnalysis(graph, context, deps, { workers: settings.SERVICE_ANALYZER_WORKERS });
    },
    close: async () => {
      await fake?.close();
    },
  };
}
