import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../support/http-service.js";

describe("the debug page's content security policy", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
  });
  afterAll(() => svc.close());

  it.each(["/debug", "/debug/", "/debug/assets/index.html"])("is sent with the page on %s", async (path) => {
    const res = await fetch(`${svc.url}${path}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<script src="[^"]*debug\.js"/);
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("is sent with the page's scripts, styles and samples as well", async () => {
    for (const path of ["/debug/assets/debug.js", "/debug/assets/debug.css", "/debug/assets/report.css", "/debug/samples"]) {
      const res = await fetch(`${svc.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-security-policy"), path).toContain("default-src 'self'");
    }
  });
});
