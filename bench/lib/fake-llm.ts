import { type FakeOpenAI, modelAnswer, requestAgent, startFakeOpenAI } from "../../test/support/fake-openai.js";
import { timedPost } from "./http.js";

/** The project's fake OpenAI-compatible server, plus when each call arrived (ms, performance.now()). */
export interface DelayedFakeLlm {
  fake: FakeOpenAI;
  arrivals: Array<{ at: number; agent: string }>;
  /** The delay of every answer from now on; a long one holds analyses in flight. */
  delayMs: number;
}

/** Starts the project's fake model answering every call with a schema-valid answer after a fixed delay. */
export async function startDelayedFakeLlm(delayMs: number): Promise<DelayedFakeLlm> {
  const arrivals: DelayedFakeLlm["arrivals"] = [];
  const llm = { arrivals, delayMs } as DelayedFakeLlm;
  llm.fake = await startFakeOpenAI((body) => {
    arrivals.push({ at: performance.now(), agent: requestAgent(body) });
    return { ...modelAnswer(body), delayMs: llm.delayMs };
  });
  return llm;
}

/**
 * Service settings that point the LLM layer at the fake. SERVICE_LLM_CACHE stays unset: any non-empty text
 * turns the cache on (spec §2.3), and a cached answer would skip the delay being measured.
 */
export function fakeLlmEnv(fake: FakeOpenAI): Record<string, string> {
  return {
    SERVICE_LLM_MODEL_NAME: "bench-model",
    SERVICE_LLM_BASE_URL: fake.baseURL,
    SERVICE_LLM_API_KEY: "bench-placeholder-key",
    SERVICE_LLM_TEMPERATURE: "0.2",
    SERVICE_LLM_MAX_TOKENS: "2000",
    SERVICE_LLM_TRACK_USAGE: "true",
  };
}

/** Runs `fn` with a started fake and always closes it. */
export async function withDelayedFakeLlm<T>(delayMs: number, fn: (llm: DelayedFakeLlm) => Promise<T>): Promise<T> {
  const llm = await startDelayedFakeLlm(delayMs);
  try {
    return await fn(llm);
  } finally {
    await llm.fake.close();
  }
}

/** One analysis timed over HTTP, with the model calls that arrived at the fake while it ran. */
export interface LlmAnalysis {
  ms: number;
  /** When each call reached the fake, relative to the request's start, and for which agent. */
  calls: Array<{ offsetMs: number; agent: string }>;
  errors: Record<string, string>;
}

/** POSTs one analysis and attributes the fake's calls to it (run analyses one at a time for that to hold). */
export async function timedLlmAnalysis(url: string, body: string, llm: DelayedFakeLlm): Promise<LlmAnalysis> {
  const before = llm.arrivals.length;
  const started = performance.now();
  const res = await timedPost(url, body);
  if (res.status !== 200) throw new Error(`the analysis answered ${res.status}: ${res.text.slice(0, 300)}`);
  const calls = llm.arrivals.slice(before).map((a) => ({ offsetMs: a.at - started, agent: a.agent }));
  if (calls.length === 0) throw new Error("the service made no LLM call: the LLM layer is not wired to SERVICE_LLM_* settings");
  const errors = (JSON.parse(res.text) as { error_messages?: Record<string, string> }).error_messages ?? {};
  return { ms: res.ms, calls, errors };
}

/**
 * Brings the service to its steady state before anything is timed: during its first analyses V8 is still compiling
 * the hot functions of the LLM path on background threads (~0.7 s of compiles over the first ~20 analyses, seen with
 * --cpu-prof and per-thread CPU), and on 2 cores those compiles take CPU from the analyses being timed. A deployed
 * service is past that within its first seconds. Sent `concurrency` at a time, so the concurrent path is warm too;
 * `concurrency` must stay within the service's per-client cap.
 */
export async function warmLlmPath(url: string, body: string, llm: DelayedFakeLlm, analyses: number, concurrency: number): Promise<void> {
  for (let sent = 0; sent < analyses; sent += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, analyses - sent) }, () => timedLlmAnalysis(url, body, llm)));
  }
}
