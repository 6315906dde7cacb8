import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServiceSettings } from "../../../config/env.js";
import { createLogger } from "../../../config/logger.js";
import { createKnowledgeBase } from "../../../knowledge/create.js";
import { errorMiddleware } from "../../../server/errors.js";
import { createKnowledgeRouter } from "../../../server/routes/knowledge.js";

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(createKnowledgeRouter(createKnowledgeBase({ settings: loadServiceSettings({}), llmConfig: null })));
  app.use(errorMiddleware(createLogger("silent")));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function get(query: string) {
  const res = await fetch(`${base}/v1/knowledge?${query}`);
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe("GET /v1/knowledge", () => {
  it("returns ranked documents with scores for a query", async () => {
    const { status, json } = await get("q=class+imbalance+minority+class&limit=2");
    expect(status).toBe(200);
    expect(json.query).toEqual({ q: "class imbalance minority class", domain: null, type: null, limit: 2 });
    expect(json.mode).toBe("full_text");
    expect(json.documents).toHaveLength(2);
    expect(json.documents[0]).toMatchObject({ id: "class-imbalance", domain: "data_quality", dense_score: null });
    expect(json.documents[0].score).toBeGreaterThan(json.documents[1].score);
    expect(json.documents[0].url).toMatch(/^https:\/\//);
  });

  it("applies the domain and type filters and the default limit", async () => {
    const { json } = await get("q=learning+rate&domain=optimization&type=solution");
    expect(json.documents.length).toBeGreaterThan(0);
    expect(json.documents.length).toBeLessThanOrEqual(5);
    for (const d of json.documents) expect(d).toMatchObject({ domain: "optimization", query_type: "solution" });
  });

  it.each([
    ["", /^Error decoding request: q: /],
    ["q=%20%20", /^Error decoding request: q: required/],
    ["q=x&domain=cooking", /^Error decoding request: domain: /],
    ["q=x&type=guess", /^Error decoding request: type: /],
    ["q=x&limit=0", /^Error decoding request: limit: /],
    ["q=x&limit=ten", /^Error decoding request: limit: /],
    ["q=x&limit=51", /^Error decoding request: limit: /],
    ["q=x&colour=red", /unknown parameter colour/],
    ["q=x&q=y", /^Error decoding request: q: give the parameter once/],
  ])("answers 400 naming the parameter for ?%s", async (query, detail) => {
    const { status, json } = await get(query);
    expect(status).toBe(400);
    expect(json.detail).toMatch(detail);
    expect(json.code).toBe("BAD_REQUEST");
  });
});
