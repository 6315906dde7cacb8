import { describe, expect, it } from "vitest";
import { loadServiceSettings } from "../../../config/env.js";
import { createLogger } from "../../../config/logger.js";
import { configuredSecrets, createRedactor, REDACTED, redactingLogger } from "../../../server/redaction.js";

describe("configuredSecrets", () => {
  it("collects the LLM key, the MLflow token and password, the URI's password and the Basic credential", () => {
    const basic = Buffer.from("alice:uri-password-1").toString("base64");
    const settings = loadServiceSettings({ SERVICE_MLFLOW_TRACKING_URI: "http://alice:uri-password-1@mlflow:5000", SERVICE_MLFLOW_PASSWORD: "env-password-2" });
    expect(configuredSecrets(settings, { apiKey: "sk-llm-key-3" }).sort()).toEqual([basic, "env-password-2", "sk-llm-key-3", "uri-password-1"].sort());
    const token = loadServiceSettings({ SERVICE_MLFLOW_TRACKING_URI: "http://mlflow:5000", SERVICE_MLFLOW_TOKEN: "mlflow-token-4" });
    expect(configuredSecrets(token, null)).toEqual(["mlflow-token-4"]);
  });

  it("collects the password of SERVICE_REDIS_URL, percent-decoded", () => {
    const settings = loadServiceSettings({ SERVICE_REDIS_URL: "rediss://default:redis%2Fpass-5@cache.internal:6380/0" });
    expect(configuredSecrets(settings, null)).toEqual(["redis/pass-5"]);
    expect(configuredSecrets(loadServiceSettings({ SERVICE_REDIS_URL: "redis://127.0.0.1:6379" }), null)).toEqual([]);
  });

  it("leaves out values too short to search for", () => {
    expect(configuredSecrets(loadServiceSettings({ SERVICE_MLFLOW_TOKEN: "abc" }), { apiKey: "" })).toEqual([]);
  });
});

describe("createRedactor", () => {
  const redactor = createRedactor(["sk-abcdef", "sk-abcdef-longer"]);

  it("replaces every occurrence, the longest secret first", () => {
    expect(redactor.text("Bearer sk-abcdef-longer and sk-abcdef.")).toBe(`Bearer ${REDACTED} and ${REDACTED}.`);
  });

  it("walks objects, arrays and errors and leaves other values alone", () => {
    const err = new TypeError("401: Authorization: Bearer sk-abcdef");
    const out = redactor.deep({ a: ["x sk-abcdef"], n: 3, nested: { err }, when: null });
    expect(out).toEqual({ a: [`x ${REDACTED}`], n: 3, nested: { err: expect.any(Error) }, when: null });
    expect(out.nested.err.message).toBe(`401: Authorization: Bearer ${REDACTED}`);
    expect(out.nested.err.name).toBe("TypeError");
  });

  it("is the identity without secrets", () => {
    const value = { a: "sk-abcdef" };
    expect(createRedactor([]).deep(value)).toBe(value);
  });
});

describe("redactingLogger", () => {
  it("redacts the message, the fields, bound fields of children and errors", () => {
    const lines: string[] = [];
    const logger = redactingLogger(createLogger("info", {}, (line) => lines.push(line)), createRedactor(["sk-abcdef"]));
    logger.child({ upstream: "echo sk-abcdef" }).warn("call failed: sk-abcdef", { error: "401 sk-abcdef", err: new Error("key sk-abcdef") });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("sk-abcdef");
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: `call failed: ${REDACTED}`, upstream: `echo ${REDACTED}`, error: `401 ${REDACTED}`, err: { message: `key ${REDACTED}` } });
  });
});
