import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../support/http-service.js";

const body = readFileSync(new URL("../fixtures/samples/tabular-healthy.json", import.meta.url), "utf8");

describe("security headers", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  const post = (path: string, text: string) => fetch(`${svc.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: text });

  it("are on every answer: success, error, not found, HTML", async () => {
    const answers = [
      await fetch(`${svc.url}/healthz`),
      await post("/v1/analyse", body),
      await post("/v1/analyse", "{"),
      await fetch(`${svc.url}/no/such/route`),
      await fetch(`${svc.url}/openapi.json`),
      await fetch(`${svc.url}/debug`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 400, 404, 200, 200]);
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(res.headers.get("content-security-policy")).toMatch(/default-src/);
      expect(res.headers.get("x-powered-by")).toBeNull();
      // Plain HTTP: HSTS belongs to whatever terminates TLS in front.
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("keep the debug page's own, stricter content policy", async () => {
    const csp = (await fetch(`${svc.url}/debug`)).headers.get("content-security-policy");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
