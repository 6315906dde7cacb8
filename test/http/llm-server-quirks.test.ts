import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeScript, fakeModelEnv, fencedAnswer, isRetry, modeOf, quirkyServer, startFakeOpenAI } from "../support/fake-openai.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const body = readFileSync(new URL("../fixtures/samples/tabular-drift-evidently.json", import.meta.url), "utf8");

let fake: FakeOpenAI | null = null;
let svc: RunningService | null = null;
afterEach(async () => {
  await svc?.close();
  await fake?.close();
  svc = fake = null;
});

/** Analyses the sample; the model's review, summary and advice must reach the response, no agent failing. */
async function analyse() {
  const res = await postJson(`${svc!.url}/v1/analyse`, body);
  expect(res.status).toBe(200);
  expect(res.json.error_messages).toEqual({});
  // The fake model tags every text it writes with the language code: the model's words are in the response.
  expect(res.json.summary).toMatch(/^\[[a-z]{2}\] cross-artifact summary/);
  expect(JSON.stringify(res.json)).toMatch(/\[fr\] [a-z_.]+: les preuves du détecteur tiennent/);
  return res;
}

async function serviceOn(script: FakeScript) {
  fake = await startFakeOpenAI(script);
  svc = await startService(fakeModelEnv(fake.baseURL, { SERVICE_LLM_MAX_TOKENS: "2000" }));
}

const modesFrom = (from: number) => fake!.requests.slice(from).map((r) => modeOf(r.body));

describe("local model servers with common quirks (docs/llm.md)", () => {
  it("a server that answers 400 for json_schema: function calling instead, remembered for the endpoint", async () => {
    await serviceOn(quirkyServer(["tools", "json_mode", "prompt"]));
    await analyse();
    expect(modesFrom(0)).toContain("tools");
    const seen = fake!.requests.length;
    await analyse();
    // Five calls (three analyzers, the reasoning agent, the advisor), none of them json_schema again.
    expect(modesFrom(seen)).toEqual(["tools", "tools", "tools", "tools", "tools"]);
  });

  it("a server that takes neither json_schema nor a forced function call: JSON mode with the schema in the prompt", async () => {
    await serviceOn(quirkyServer(["json_mode", "prompt"]));
    await analyse();
    const seen = fake!.requests.length;
    await analyse();
    expect(modesFrom(seen)).toEqual(["json_mode", "json_mode", "json_mode", "json_mode", "json_mode"]);
  });

  it("a model that fences its JSON in prose: read as it is, without asking again", async () => {
    await serviceOn(fencedAnswer);
    await analyse();
    expect(modesFrom(0).every((m) => m === "json_schema")).toBe(true);
    expect(fake!.requests.filter((r) => isRetry(r.body))).toEqual([]);
    expect(fake!.requests).toHaveLength(5);
  });
});
