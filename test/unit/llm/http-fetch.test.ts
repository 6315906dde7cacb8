import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatModel } from "../../../llm/chat-model.js";
import type { LlmConfig } from "../../../llm/config.js";
import { httpFetch } from "../../../llm/http-fetch.js";
import { invokeStructured } from "../../../llm/structured.js";
import { type FakeOpenAI, type FakeScript, startFakeOpenAI } from "../../support/fake-openai.js";

let fake: FakeOpenAI | null = null;
const servers: http.Server[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function fakeOn(script: FakeScript) {
  fake = await startFakeOpenAI(script);
  return `${fake.baseURL}/chat/completions`;
}

/** A server that answers every request with its body and counts the TCP connections it was sent on. */
async function echoServer() {
  const state = { connections: 0, url: "" };
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    res.writeHead(200, { "content-type": "application/json", "x-echo": "yes" }).end(JSON.stringify({ method: req.method, body: raw }));
  });
  server.on("connection", () => state.connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
  return state;
}

describe("httpFetch (the model client's fetch)", () => {
  it("sends the method, headers and body as given and answers with the status, headers and body", async () => {
    const url = await fakeOn(() => ({ content: "{}" }));
    const body = JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: "é ✓ 1" }] });
    const res = await httpFetch(url, { method: "POST", headers: new Headers({ authorization: "Bearer sk-x", "content-type": "application/json" }), body });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(((await res.json()) as { model: string }).model).toBe("fake-model");
    expect(fake!.requests[0]).toMatchObject({ method: "POST", authorization: "Bearer sk-x", body: JSON.parse(body) });
  });

  it("answers an error status with its body, as fetch does", async () => {
    const url = await fakeOn(() => ({ status: 503 }));
    const res = await httpFetch(url, { method: "POST", body: "{}" });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("fake error 503");
  });

  it("keeps the connection alive between calls", async () => {
    const echo = await echoServer();
    for (const n of [1, 2, 3]) {
      const res = await httpFetch(echo.url, { method: "POST", body: `{"n":${n}}` });
      expect(await res.json()).toEqual({ method: "POST", body: `{"n":${n}}` });
    }
    expect(echo.connections).toBe(1);
  });

  it("rejects with an AbortError when the signal aborts while the model is answering, and closes the request", async () => {
    const url = await fakeOn(() => ({ content: "{}", delayMs: 10_000 }));
    const controller = new AbortController();
    const pending = httpFetch(url, { method: "POST", body: "{}", signal: controller.signal });
    while (fake!.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    while (fake!.abandoned === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fake!.abandoned).toBe(1);
  });

  it("rejects at once with an already-aborted signal, and with TypeError('fetch failed') and the cause when nothing listens", async () => {
    await expect(httpFetch("http://127.0.0.1:9/", { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    const closed = await echoServer();
    servers[0]!.close();
    await expect(httpFetch(closed.url, { method: "POST", body: "{}" })).rejects.toMatchObject({ name: "TypeError", message: "fetch failed", cause: { code: "ECONNREFUSED" } });
  });

  it("is the chat model's default: its time-out ends a hung call as the OpenAI client's time-out, and structured calls get their answer", async () => {
    const answers: FakeScript = (_body, index) => (index === 0 ? { content: "{}", delayMs: 10_000 } : { content: JSON.stringify({ ok: true }) });
    fake = await startFakeOpenAI(answers);
    const config: LlmConfig = { apiKey: "sk-test", baseUrl: fake.baseURL, modelName: "fake-model", temperature: 0, maxTokens: 64, cache: false, trackUsage: true };
    const model = createChatModel(config, { timeoutMs: 200, maxRetries: 0, cache: null });
    const schema = z.object({ ok: z.boolean() });
    const messages = [{ role: "user" as const, content: "{}" }];
    await expect(invokeStructured(model, schema, "ok", messages, {})).rejects.toMatchObject({ name: "TimeoutError" });
    await expect(invokeStructured(model, schema, "ok", messages, {})).resolves.toEqual({ ok: true });
  });
});
