import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatModel } from "../../../llm/chat-model.js";
import type { LlmConfig } from "../../../llm/config.js";
import type { ChatMessages } from "../../../llm/prompt-kit.js";
import { jsonOfReply } from "../../../llm/reply-json.js";
import { invokeStructured, LlmOutputError } from "../../../llm/structured.js";
import { isFormatRefusal, StructuredModeMemory, type StructuredOutputSetting } from "../../../llm/structured-mode.js";
import { type FakeOpenAI, type FakeScript, modeOf, startFakeOpenAI } from "../../support/fake-openai.js";

const Verdict = z.object({ severity: z.enum(["high", "low"]), note: z.string().nullable() });
const messages: ChatMessages = [
  { role: "system", content: "Judge." },
  { role: "user", content: JSON.stringify({ agent: "TestAgent" }) },
];
const ok = JSON.stringify({ severity: "high", note: null });

let fake: FakeOpenAI | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** A model on a fake server, and structured options with a memory of their own (not the process's). */
async function on(script: FakeScript, setting: StructuredOutputSetting = "auto") {
  fake = await startFakeOpenAI(script);
  const config: LlmConfig = { apiKey: null, baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0, maxTokens: 256, cache: false, trackUsage: false };
  const model = createChatModel(config, { timeoutMs: 5000, maxRetries: 0, cache: null });
  const memory = new StructuredModeMemory();
  const ask = () => invokeStructured(model, Verdict, "verdict", messages, {}, { setting, endpoint: "fake fake-model", memory });
  return { ask, memory, modes: () => fake!.requests.map((r) => modeOf(r.body)) };
}

/** Answers in the way each mode asks, refusing the modes not in `accepts` with a 400. */
const accepting =
  (accepts: string[], content = ok): FakeScript =>
  (body) => {
    const mode = modeOf(body);
    if (!accepts.includes(mode)) return { status: 400 };
    return mode === "tools" ? { toolCall: { name: body.tools![0]!.function.name, arguments: content } } : { content };
  };

describe("structured output negotiated with the server", () => {
  it("uses json_schema where the server takes it: one request", async () => {
    const s = await on(accepting(["json_schema", "tools", "json_mode", "prompt"]));
    await expect(s.ask()).resolves.toEqual({ severity: "high", note: null });
    expect(s.modes()).toEqual(["json_schema"]);
  });

  it("falls back to a forced function call on a 400 for json_schema, and remembers it for the endpoint", async () => {
    const s = await on(accepting(["tools", "json_mode", "prompt"]));
    await expect(s.ask()).resolves.toEqual({ severity: "high", note: null });
    await expect(s.ask()).resolves.toEqual({ severity: "high", note: null });
    expect(s.modes()).toEqual(["json_schema", "tools", "tools"]);
    const call = fake!.requests[1]!.body;
    expect(call.tools![0]!.function).toMatchObject({ name: "verdict", parameters: { type: "object", required: ["severity", "note"] } });
    expect(call.tool_choice).toEqual({ type: "function", function: { name: "verdict" } });
    expect(s.memory.current("fake fake-model")).toBe("tools");
  });

  it("goes on to JSON mode, then to the schema in the prompt, stating the schema in the system message", async () => {
    const jsonMode = await on(accepting(["json_mode", "prompt"]));
    await expect(jsonMode.ask()).resolves.toEqual({ severity: "high", note: null });
    expect(jsonMode.modes()).toEqual(["json_schema", "tools", "json_mode"]);
    const asked = fake!.requests[2]!.body;
    expect(asked.response_format).toEqual({ type: "json_object" });
    expect(asked.messages[0]!.content).toMatch(/^Judge\.\n\nReply with only one JSON object, no other text, that matches the JSON schema "verdict": \{/);
    await fake!.close();

    const promptOnly = await on(accepting(["prompt"]));
    await expect(promptOnly.ask()).resolves.toEqual({ severity: "high", note: null });
    expect(promptOnly.modes()).toEqual(["json_schema", "tools", "json_mode", "prompt"]);
    expect(fake!.requests[3]!.body.response_format).toBeUndefined();
  });

  it("reads JSON fenced in prose under json_schema, without asking again", async () => {
    const s = await on(() => ({ content: `Here is my verdict:\n\`\`\`json\n${ok}\n\`\`\`\nHope it helps {really}.` }));
    await expect(s.ask()).resolves.toEqual({ severity: "high", note: null });
    expect(s.modes()).toEqual(["json_schema"]);
  });

  it("keeps a pinned mode: no json_schema sent, and a 400 is the call's error, not a reason to change", async () => {
    const pinned = await on(accepting(["json_schema", "json_mode"]), "json_mode");
    await expect(pinned.ask()).resolves.toEqual({ severity: "high", note: null });
    expect(pinned.modes()).toEqual(["json_mode"]);
    await fake!.close();
    const refused = await on(accepting(["json_schema"]), "tools");
    await expect(refused.ask()).rejects.toMatchObject({ status: 400 });
    expect(refused.modes()).toEqual(["tools"]);
  });

  it("still asks once more for a reply that breaks the schema, then gives up with LlmOutputError", async () => {
    const s = await on(() => ({ content: "```json\n{\"severity\": \"medium\"}\n```" }));
    await expect(s.ask()).rejects.toBeInstanceOf(LlmOutputError);
    expect(s.modes()).toEqual(["json_schema", "json_schema"]);
  });

  it("throws the last refusal when the server takes no mode", async () => {
    const s = await on(() => ({ status: 400 }));
    await expect(s.ask()).rejects.toMatchObject({ status: 400 });
    expect(s.modes()).toEqual(["json_schema", "tools", "json_mode", "prompt"]);
  });
});

describe("what counts as a refused format", () => {
  it("is a 400 or 422 that does not speak of the context length", () => {
    expect(isFormatRefusal({ status: 400, message: "400 response_format json_schema is not supported" })).toBe(true);
    expect(isFormatRefusal({ status: 422, message: "Unprocessable Entity" })).toBe(true);
    expect(isFormatRefusal({ status: 400, message: "This model's maximum context length is 4096 tokens" })).toBe(false);
    expect(isFormatRefusal({ status: 500, message: "internal" })).toBe(false);
    expect(isFormatRefusal(new Error("socket hang up"))).toBe(false);
  });

  it("never moves an endpoint back up when concurrent calls are refused at once", () => {
    const m = new StructuredModeMemory();
    expect(m.fallBack("e", "json_schema")).toBe("tools");
    expect(m.fallBack("e", "tools")).toBe("json_mode");
    expect(m.fallBack("e", "json_schema")).toBe("json_mode");
    expect(m.fallBack("e", "prompt")).toBeNull();
  });
});

describe("the JSON in a reply", () => {
  it.each([
    ['{"a": 1}', '{"a": 1}'],
    ['  {"a": 1}\n', '{"a": 1}'],
    ['```json\n{"a": 1}\n```', '{"a": 1}'],
    ['Sure, here it is:\n```\n{"a": "x}y"}\n```\nAnything else?', '{"a": "x}y"}'],
    ['The answer {as asked} is {"a": {"b": [1, 2]}} and that is all.', '{"a": {"b": [1, 2]}}'],
    ['```python\nprint(1)\n```\n```json\n{"a": 1}\n```', '{"a": 1}'],
    ["no json here", "no json here"],
  ])("takes %j as %j", (reply, json) => {
    expect(jsonOfReply(reply)).toBe(json);
  });
});
