// Worker for prompt_budget: analyses one training history with the LLM layer pointed at the project's fake
// model, and measures every prompt the fake received. argv: <points>. Sends one PromptCapture over IPC.
import { createLogger } from "../../config/logger.js";
import { estimateTokens, promptTokens } from "../../llm/prompt-kit.js";
import { analyzeRequest } from "../../server/analyze-request.js";
import { Deadline } from "../../graph/deadline.js";
import { createServiceRuntime } from "../../server/runtime.js";
import { modelAnswer, requestAgent, startFakeOpenAI } from "../../test/support/fake-openai.js";
import { trainingHistoryRequest } from "../data/training-history.js";
import { fakeLlmEnv } from "../lib/fake-llm.js";

export interface PromptCapture {
  points: number;
  /** Estimated tokens of the training artifact sent as JSON: the naive prompt. */
  rawTokens: number;
  /** Estimated tokens of each agent's prompt (system + user message), by agent. */
  promptTokens: Record<string, number>;
  errors: Record<string, string>;
}

const points = Number(process.argv[2]);
if (!(points > 0)) throw new Error("usage: prompt-capture.ts <points>");

const fake = await startFakeOpenAI((body) => modelAnswer(body));
try {
  const logger = createLogger("silent");
  const runtime = createServiceRuntime({ SERVICE_LOG_LEVEL: "silent", ...fakeLlmEnv(fake) }, { logger });
  const body = trainingHistoryRequest(points);
  const response = await analyzeRequest(runtime, body, { requestId: "bench", logger, deadline: new Deadline() });
  const capture: PromptCapture = {
    points,
    rawTokens: estimateTokens(JSON.stringify(body.training_artifacts)),
    promptTokens: {},
    errors: response.error_messages,
  };
  for (const { body: request } of fake.requests) {
    const agent = requestAgent(request);
    capture.promptTokens[agent] = Math.max(capture.promptTokens[agent] ?? 0, promptTokens(request.messages));
  }
  await new Promise((resolve) => process.send!(capture, resolve));
} finally {
  await fake.close();
}
process.exit(0);
