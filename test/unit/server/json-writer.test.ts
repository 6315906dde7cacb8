import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonWriter, useJsonWriter } from "../../../server/json-writer.js";
import { createRedactor, REDACTED } from "../../../server/redaction.js";

describe("jsonWriter", () => {
  const value = { agent_results: { A: { findings: [{ id: "x", evidence: "val_loss 0.31 ≥ 0.2", confidence: 0.9 }] } }, summary: null, n: [1, 2.5, -3e-9] };

  it("writes what JSON.stringify writes when nothing needs the replacer, with or without secrets configured", () => {
    expect(jsonWriter(createRedactor([]))(value)).toBe(JSON.stringify(value));
    expect(jsonWriter(createRedactor(["sk-not-in-there"]))(value)).toBe(JSON.stringify(value));
    expect(jsonWriter(createRedactor([]))(undefined)).toBeUndefined();
  });

  it("writes a bigint as a number, anywhere in the value", () => {
    expect(jsonWriter(createRedactor([]))({ a: [1n, { b: 2n ** 40n }] })).toBe('{"a":[1,{"b":1099511627776}]}');
  });

  it("redacts a secret in any string, also one that JSON escapes (quotes, backslashes, control characters)", () => {
    const secrets = ["sk-plain-123", 'pa"ss\\word\n-9'];
    const write = jsonWriter(createRedactor(secrets));
    const text = write({ detail: `401 Bearer ${secrets[0]}`, deep: [{ echo: `user:${secrets[1]}!` }], bigint: 7n });
    expect(JSON.parse(text)).toEqual({ detail: `401 Bearer ${REDACTED}`, deep: [{ echo: `user:${REDACTED}!` }], bigint: 7 });
    for (const secret of secrets) expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
  });

  it("still fails on what no replacer can write (a cycle)", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonWriter(createRedactor(["sk-plain-123"]))(cyclic)).toThrow(TypeError);
  });
});

describe("useJsonWriter: an app's res.json over HTTP", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    useJsonWriter(app, jsonWriter(createRedactor(["sk-plain-123"])));
    app.get("/answer", (_req, res) => {
      res.json({ echo: "Bearer sk-plain-123", size: 3n });
    });
    app.get("/problem", (_req, res) => {
      res.status(400).type("application/problem+json").json({ detail: "bad" });
    });
    const other = express();
    other.get("/plain", (_req, res) => {
      res.json({ echo: "Bearer sk-plain-123" });
    });
    app.use(other);
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("writes through the writer, with Express's content type", async () => {
    const res = await fetch(`${base}/answer`);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.text()).toBe(`{"echo":"Bearer ${REDACTED}","size":3}`);
  });

  it("keeps a content type set before", async () => {
    const res = await fetch(`${base}/problem`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(await res.json()).toEqual({ detail: "bad" });
  });

  it("reaches a mounted app too, as Express's settings do", async () => {
    const res = await fetch(`${base}/plain`);
    expect(await res.json()).toEqual({ echo: `Bearer ${REDACTED}` });
  });
});
