import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadServiceSettings, readRawEnv } from "../../../config/env.js";
import { describeLlmConfig, loadLlmConfig } from "../../../llm/config.js";

const full = {
  SERVICE_LLM_MODEL_NAME: "gpt-test",
  SERVICE_LLM_TEMPERATURE: "0.2",
  SERVICE_LLM_MAX_TOKENS: "1024",
  SERVICE_LLM_API_KEY: "sk-secret-value",
  SERVICE_LLM_BASE_URL: "http://127.0.0.1:9/v1",
};

describe("loadLlmConfig (spec §2.3)", () => {
  it("runs deterministic when no model name is set", () => {
    expect(loadLlmConfig({}).config).toBeNull();
    expect(loadLlmConfig({ SERVICE_LLM_MODEL_NAME: "  " }).config).toBeNull();
    expect(loadLlmConfig({ SERVICE_LLM_TEMPERATURE: "x" }).config).toBeNull();
  });

  it("parses temperature as a float and max_tokens as an integer", () => {
    const { config } = loadLlmConfig(full);
    expect(config).toMatchObject({ modelName: "gpt-test", temperature: 0.2, maxTokens: 1024, apiKey: "sk-secret-value", baseUrl: "http://127.0.0.1:9/v1" });
  });

  it("fails naming the variable when temperature or max_tokens is unset (no fallback on load)", () => {
    const { SERVICE_LLM_TEMPERATURE: _t, ...noTemperature } = full;
    expect(() => loadLlmConfig(noTemperature)).toThrow(/SERVICE_LLM_TEMPERATURE must be set/);
    const { SERVICE_LLM_MAX_TOKENS: _m, ...noMax } = full;
    expect(() => loadLlmConfig(noMax)).toThrow(/SERVICE_LLM_MAX_TOKENS must be set/);
  });

  it("rejects values that are not numbers of the right kind", () => {
    expect(() => loadLlmConfig({ ...full, SERVICE_LLM_TEMPERATURE: "warm" })).toThrow(ConfigError);
    expect(() => loadLlmConfig({ ...full, SERVICE_LLM_MAX_TOKENS: "8000.5" })).toThrow(/positive integer/);
    expect(() => loadLlmConfig({ ...full, SERVICE_LLM_MAX_TOKENS: "-3" })).toThrow(/positive integer/);
    expect(() => loadLlmConfig({ ...full, SERVICE_LLM_BASE_URL: "not a url" })).toThrow(/BASE_URL/);
  });

  it("treats cache and track_usage as true for any non-empty text, false when unset or empty", () => {
    expect(loadLlmConfig(full).config).toMatchObject({ cache: false, trackUsage: false });
    expect(loadLlmConfig({ ...full, SERVICE_LLM_CACHE: "", SERVICE_LLM_TRACK_USAGE: "" }).config).toMatchObject({ cache: false, trackUsage: false });
    expect(loadLlmConfig({ ...full, SERVICE_LLM_CACHE: "yes", SERVICE_LLM_TRACK_USAGE: "1" }).config).toMatchObject({ cache: true, trackUsage: true });
  });

  it('counts "false" and "0" as true, with a warning naming the variable', () => {
    const { config, warnings } = loadLlmConfig({ ...full, SERVICE_LLM_CACHE: "false", SERVICE_LLM_TRACK_USAGE: "0" });
    expect(config).toMatchObject({ cache: true, trackUsage: true });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/SERVICE_LLM_CACHE="false" counts as true/);
    expect(warnings[1]).toMatch(/SERVICE_LLM_TRACK_USAGE/);
  });

  it("never shows the API key", () => {
    const shown = JSON.stringify(describeLlmConfig(loadLlmConfig(full).config));
    expect(shown).not.toContain("sk-secret-value");
    expect(shown).toContain('"apiKey":"(set)"');
  });
});

describe("readRawEnv and SERVICE_ENV_FILE", () => {
  it("loads the env file first and lets real variables win", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-env-"));
    const file = join(dir, ".env");
    writeFileSync(file, "SERVICE_LLM_MODEL_NAME=from-file\nSERVICE_LLM_TEMPERATURE=0.5\nPORT=9000\n");
    try {
      const raw = readRawEnv({ SERVICE_ENV_FILE: file, PORT: "9100" });
      expect(raw.SERVICE_LLM_MODEL_NAME).toBe("from-file");
      expect(raw.PORT).toBe("9100");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails with the path when the file cannot be read", () => {
    expect(() => readRawEnv({ SERVICE_ENV_FILE: "/nonexistent/.env" })).toThrow(/SERVICE_ENV_FILE=\/nonexistent\/.env/);
  });
});

describe("loadServiceSettings", () => {
  it("applies the documented defaults", () => {
    const s = loadServiceSettings({});
    expect(s).toMatchObject({ PORT: 8844, SERVICE_ANALYZER_WORKERS: 3, SERVICE_MAX_CONCURRENT_ANALYSES: 10, SERVICE_REQUEST_TIMEOUT_MS: 300_000, SERVICE_ARTIFACT_ROOTS: [] });
    expect(Object.isFrozen(s)).toBe(true);
  });

  it("names every bad variable and caps the request time-out at 300 s", () => {
    expect(() => loadServiceSettings({ PORT: "http", SERVICE_REQUEST_TIMEOUT_MS: "900000" })).toThrow(/PORT.*SERVICE_REQUEST_TIMEOUT_MS/);
  });

  it("splits artifact roots on colons", () => {
    expect(loadServiceSettings({ SERVICE_ARTIFACT_ROOTS: "/a:/b/c:" }).SERVICE_ARTIFACT_ROOTS).toEqual(["/a", "/b/c"]);
  });
});
