import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatModel } from "../../../llm/chat-model.js";
import type { LlmConfig } from "../../../llm/config.js";
import type { ChatMessages } from "../../../llm/prompt-kit.js";
import { AdviceSchema, AgentReviewSchema, CrossSummarySchema } from "../../../llm/schemas.js";
import { invokeStructured, LlmOutputError } from "../../../llm/structured.js";
import { type FakeOpenAI, type FakeScript, modeOf, startFakeOpenAI } from "../../support/fake-openai.js";

const Verdict = z.object({ severity: z.enum(["high", "low"]), note: z.string().nullable() });
const messages: ChatMessages = [
  { role: "system", content: "Judge." },
  { role: "user", content: JSON.stringify({ agent: "TestAgent" }) },
];

let fake: FakeOpenAI | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function modelOn(script: FakeScript, over: { maxRetries?: number; timeoutMs?: number } = {}) {
  fake = await startFakeOpenAI(script);
  const config: LlmConfig = { apiKey: "sk-test", baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0.2, maxTokens: 512, cache: false, trackUsage: true };
  return createChatModel(config, { timeoutMs: over.timeoutMs ?? 5000, maxRetries: over.maxRetries ?? 1, cache: null });
}

const ok = JSON.stringify({ severity: "high", note: null });

/** A value of a strict JSON schema (every property required): strings, numbers, first enum members, one array item. */
function sampleOf(schema: unknown): unknown {
  const s = schema as { type?: string | string[]; enum?: unknown[]; properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[] };
  if (s.enum) return s.enum[0];
  if (s.anyOf) return sampleOf(s.anyOf[0]);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (type === "object") return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(v)]));
  if (type === "array") return [sampleOf(s.items)];
  if (type === "number" || type === "integer") return 0.5;
  if (type === "boolean") return true;
  return "text";
}

/** Every object closed and fully required, no keywords strict mode refuses (OpenAI structured outputs). */
function strictProblems(schema: unknown, path = "$"): string[] {
  if (!schema || typeof schema !== "object") return [];
  const s = schema as Record<string, unknown>;
  const problems: string[] = [];
  for (const banned of ["default", "minimum", "maximum", "format", "pattern", "minLength", "maxLength"]) {
    if (banned in s) problems.push(`${path}: ${banned}`);
  }
  if ("$ref" in s && Object.keys(s).some((k) => !["$ref", "title"].includes(k))) problems.push(`${path}: $ref with siblings`);
  if (s.type === "object") {
    if (s.additionalProperties !== false) problems.push(`${path}: additionalProperties`);
    const keys = Object.keys((s.properties as object) ?? {}).sort();
    if (JSON.stringify([...((s.required as string[]) ?? [])].sort()) !== JSON.stringify(keys)) problems.push(`${path}: required`);
  }
  for (const [k, v] of Object.entries(s)) {
    if (Array.isArray(v)) v.forEach((x, i) => problems.push(...strictProblems(x, `${path}.${k}[${i}]`)));
    else if (v && typeof v === "object") {
      for (const [k2, v2] of Object.entries(v)) problems.push(...strictProblems(v2, `${path}.${k}.${k2}`));
      problems.push(...strictProblems(v, `${path}.${k}`));
    }
  }
  return problems;
}

describe("invokeStructured against an OpenAI-compatible server", () => {
  it("sends the configured model, temperature, max_tokens and key, and returns the parsed object", async () => {
    const model = await modelOn(() => ({ content: ok }));
    await expect(invokeStructured(model, Verdict, "verdict", messages, {})).resolves.toEqual({ severity: "high", note: null });
    const [req] = fake!.requests;
    expect(req!.authorization).toBe("Bearer sk-test");
    expect(req!.body).toMatchObject({ model: "fake-model", temperature: 0.2, max_tokens: 512, messages });
    expect(req!.body.stream).not.toBe(true);
    expect(req!.body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "verdict", strict: true } });
  });

  it.each([
    ["agent_review", AgentReviewSchema],
    ["cross_artifact_summary", CrossSummarySchema],
    ["optimization_advice", AdviceSchema],
  ])("sends the %s schema in a shape OpenAI strict mode accepts", async (name, schema) => {
    const model = await modelOn(() => ({ status: 400 }));
    await expect(invokeStructured(model, schema as z.ZodType<unknown>, name, messages, {})).rejects.toThrow();
    const sent = fake!.requests[0]!.body.response_format!.json_schema!;
    expect(sent.strict).toBe(true);
    expect(strictProblems(sent.schema)).toEqual([]);
  });

  it("the strict-shape check itself flags .optional() and .default().describe()", async () => {
    const model = await modelOn(() => ({ status: 400 }));
    const loose = z.object({ a: z.string().optional(), b: z.string().default("x").describe("d") });
    await expect(invokeStructured(model, loose as z.ZodType<unknown>, "loose", messages, {})).rejects.toThrow();
    const problems = strictProblems(fake!.requests[0]!.body.response_format!.json_schema!.schema);
    expect(problems).toEqual(expect.arrayContaining(["$: required", expect.stringMatching(/default/)]));
  });

  it("binds each schema once per model: repeated and concurrent calls send the same format and check each reply against their own schema", async () => {
    const model = await modelOn((body) => ({ content: body.response_format!.json_schema!.schema.properties && "count" in (body.response_format!.json_schema!.schema.properties as object) ? JSON.stringify({ count: 3 }) : ok }));
    const Count = z.object({ count: z.number() });
    const [a, b, c] = await Promise.all([
      invokeStructured(model, Verdict, "verdict", messages, {}),
      invokeStructured(model, Verdict, "verdict", messages, {}),
      invokeStructured(model, Count, "verdict", messages, {}),
    ]);
    expect([a, b, c]).toEqual([{ severity: "high", note: null }, { severity: "high", note: null }, { count: 3 }]);
    await expect(invokeStructured(model, Verdict, "verdict", messages, {})).resolves.toEqual({ severity: "high", note: null });
    const formats = fake!.requests.map((r) => r.body.response_format!);
    expect(formats[1]).toEqual(formats[0]);
    expect(formats[3]).toEqual(formats[0]);
    expect(Object.keys(formats[2]!.json_schema!.schema.properties as object)).toEqual(["count"]);
    expect(formats[0]!.json_schema!).toMatchObject({ name: "verdict", strict: true, schema: { type: "object", required: ["severity", "note"] } });
  });

  it.each([
    ["agent_review", AgentReviewSchema],
    ["cross_artifact_summary", CrossSummarySchema],
    ["optimization_advice", AdviceSchema],
  ])("sends the %s request LangChain's withStructuredOutput(jsonSchema) sends, and returns what its parser returns", async (name, schema) => {
    const reply = (body: { response_format?: { json_schema?: { schema: unknown } } }) => JSON.stringify(sampleOf(body.response_format!.json_schema!.schema));
    const model = await modelOn((body) => ({ content: reply(body) }));
    const ours = await invokeStructured(model, schema as z.ZodType<unknown>, name, messages, {});
    const langchain = await model.withStructuredOutput(schema as z.ZodType<Record<string, unknown>>, { name, method: "jsonSchema" }).invoke([...messages]);
    const [mine, theirs] = fake!.requests;
    expect(mine!.body).toEqual(theirs!.body);
    expect(ours).toEqual(langchain);
  });

  it("asks once more, stating the problem, when the reply is not JSON", async () => {
    const model = await modelOn((_body, i) => ({ content: i === 0 ? "{severity: high" : ok }));
    await expect(invokeStructured(model, Verdict, "verdict", messages, {})).resolves.toEqual({ severity: "high", note: null });
    expect(fake!.requests).toHaveLength(2);
    const retry = fake!.requests[1]!.body.messages;
    expect(retry).toHaveLength(3);
    expect(retry[2]!.content).toMatch(/could not be used: not valid JSON/);
  });

  it("gives up after the second unusable reply with a message naming the schema and the field", async () => {
    const model = await modelOn(() => ({ content: JSON.stringify({ severity: "catastrophic", note: null }) }));
    const err = await invokeStructured(model, Verdict, "verdict", messages, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmOutputError);
    expect((err as Error).message).toMatch(/verdict schema twice: severity: Invalid option/);
    expect(fake!.requests).toHaveLength(2);
  });

  it("checks each reply against its schema once, and still asks again when a reply breaks it", async () => {
    let checks = 0;
    const Counted = Verdict.refine(() => ++checks > 0);
    const model = await modelOn((_body, i) => ({ content: i === 0 ? JSON.stringify({ severity: "catastrophic", note: null }) : ok }));
    await expect(invokeStructured(model, Counted, "verdict", messages, {})).resolves.toEqual({ severity: "high", note: null });
    expect(fake!.requests).toHaveLength(2);
    expect(fake!.requests[1]!.body.messages[2]!.content).toMatch(/severity: Invalid option/);
    // The first reply fails on its enum before the refinement runs; the second is checked once.
    expect(checks).toBe(1);
  });

  it("retries a 500 only as often as maxRetries says, and not again for the output", async () => {
    const model = await modelOn(() => ({ status: 500 }), { maxRetries: 2 });
    await expect(invokeStructured(model, Verdict, "verdict", messages, {})).rejects.toMatchObject({ status: 500 });
    expect(fake!.requests).toHaveLength(3);
  });

  it("never retries a 400: each format is asked once (negotiation), then the 400 is the error", async () => {
    const model = await modelOn(() => ({ status: 400 }), { maxRetries: 2 });
    await expect(invokeStructured(model, Verdict, "verdict", messages, {})).rejects.toMatchObject({ status: 400 });
    expect(fake!.requests.map((r) => modeOf(r.body))).toEqual(["json_schema", "tools", "json_mode", "prompt"]);
  });

  it("times out a slow answer after timeoutMs", async () => {
    const model = await modelOn(() => ({ content: ok, delayMs: 5000 }), { maxRetries: 0, timeoutMs: 200 });
    await expect(invokeStructured(model, Verdict, "verdict", messages, {})).rejects.toThrow(/timed out/i);
    expect(fake!.requests).toHaveLength(1);
  });

  it("stops at once when the caller's signal aborts", async () => {
    const model = await modelOn(() => ({ content: ok, delayMs: 5000 }), { maxRetries: 2 });
    const controller = new AbortController();
    const call = invokeStructured(model, Verdict, "verdict", messages, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("client disconnected")), 100);
    await expect(call).rejects.toThrow();
    expect(fake!.requests).toHaveLength(1);
  });
});
