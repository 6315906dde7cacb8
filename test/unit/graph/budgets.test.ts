import { describe, expect, it } from "vitest";
import { ConfigError, loadServiceSettings } from "../../../config/env.js";
import { createLogger } from "../../../config/logger.js";
import { agentBudgetMs, checkLlmBudget, finishLlmBudgetMs, llmBudgetMs } from "../../../graph/budgets.js";
import { Deadline } from "../../../graph/deadline.js";
import { createServiceRuntime } from "../../../server/runtime.js";

const LLM_ENV = { SERVICE_LLM_MODEL_NAME: "fake-model", SERVICE_LLM_BASE_URL: "http://127.0.0.1:9/v1", SERVICE_LLM_TEMPERATURE: "0", SERVICE_LLM_MAX_TOKENS: "100" };
const start = (env: Record<string, string>) => createServiceRuntime({ SERVICE_LOG_LEVEL: "silent", ...env }, { logger: createLogger("silent") });

describe("time budgets", () => {
  it("defaults keep the model budget per agent below the agent time-out", () => {
    const settings = loadServiceSettings({});
    expect(llmBudgetMs(settings)).toBe(settings.SERVICE_LLM_TIMEOUT_MS * (1 + settings.SERVICE_LLM_MAX_RETRIES));
    expect(llmBudgetMs(settings)).toBeLessThan(settings.SERVICE_AGENT_TIMEOUT_MS);
    expect(() => start(LLM_ENV)).not.toThrow();
  });

  it("refuses to start with a model whose budget per agent reaches the agent time-out, naming the variables", () => {
    const env = { ...LLM_ENV, SERVICE_LLM_TIMEOUT_MS: "60000", SERVICE_LLM_MAX_RETRIES: "1", SERVICE_AGENT_TIMEOUT_MS: "120000" };
    expect(() => start(env)).toThrow(ConfigError);
    expect(() => start(env)).toThrow(
      "the language-model budget per agent, SERVICE_LLM_TIMEOUT_MS (60000) × (1 + SERVICE_LLM_MAX_RETRIES (1)) = 120000 ms, must be smaller than SERVICE_AGENT_TIMEOUT_MS (120000); lower the first two or raise the last",
    );
  });

  it("does not check model settings in deterministic mode, where they are unused", () => {
    expect(() => start({ SERVICE_LLM_TIMEOUT_MS: "60000", SERVICE_AGENT_TIMEOUT_MS: "1000" })).not.toThrow();
    expect(() => checkLlmBudget(loadServiceSettings({ SERVICE_LLM_TIMEOUT_MS: "60000", SERVICE_AGENT_TIMEOUT_MS: "1000" }))).toThrow(ConfigError);
  });

  it("ends analyzers before the request's end, keeping a share for integrate and advise", () => {
    const settings = loadServiceSettings({ SERVICE_REQUEST_TIMEOUT_MS: "10000", SERVICE_AGENT_TIMEOUT_MS: "9000" });
    const deadline = new Deadline().begin(10_000, "request");
    try {
      const agent = agentBudgetMs(deadline, settings);
      expect(agent).toBeLessThanOrEqual(8000);
      expect(agent).toBeGreaterThan(7000);
      // Integrate's model step gets at most half of what is left (less the response's share), advise the rest.
      expect(finishLlmBudgetMs(deadline, settings, 2)).toBeLessThanOrEqual(Math.min(llmBudgetMs(settings), 4900));
      expect(finishLlmBudgetMs(deadline, settings, 1)).toBeLessThanOrEqual(9800);
    } finally {
      deadline.dispose();
    }
    // Outside a request (the LangGraph CLI, replays) the deadline never begins: the agent's own time-out applies.
    expect(agentBudgetMs(new Deadline(), settings)).toBe(9000);
  });
});
