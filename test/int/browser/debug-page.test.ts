import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE } from "../../../nodes/names.js";
import { chromiumPath } from "../../support/chromium.js";
import { type RunningService, startService } from "../../support/http-service.js";

/** Without the background-networking flags Chromium keeps calling Google services, which a closed network refuses. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ARTIFACTS = new URL("../../../test-artifacts/", import.meta.url);
const GRAPH_NODES = Object.values(NODE);

describe("the /debug page in Chromium", () => {
  let svc: RunningService;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
    profile = mkdtempSync(join(tmpdir(), "debug-page-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    await svc?.close();
  });

  /** Opens the page, recording every request URL it makes and every console error or warning. */
  async function openPage(): Promise<{ page: Page; requests: string[]; problems: string[] }> {
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${svc.url}/debug`);
    await page.waitForSelector("#graph[data-ready=true]");
    return { page, requests, problems };
  }

  const nodeStates = (page: Page) =>
    page.$$eval("#graph g.node", (els) =>
      Object.fromEntries(els.map((el) => [/-flowchart-(.+)-\d+$/.exec(el.id)?.[1] ?? el.id, { cls: el.getAttribute("class") ?? "", label: el.querySelector(".node-timing")?.textContent ?? null }])),
    );

  it("loads with no console errors, draws all seven nodes and requests nothing beyond this server", async () => {
    const { page, requests, problems } = await openPage();
    const drawn = Object.keys(await nodeStates(page));
    expect(drawn.filter((id) => !id.startsWith("__")).sort()).toEqual([...GRAPH_NODES].sort());
    const samples = await page.$$eval("#sample option", (os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(samples).toContain("full-image-classification.json");
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${svc.url}/`))).toEqual([]);
    expect(requests).toContain(`${svc.url}/debug/assets/mermaid.min.js`);
    await page.close();
  });

  it("runs a sample with streaming: every node lights up with its timing, then the report shows a chart", async () => {
    const { page, requests, problems } = await openPage();
    await page.selectOption("#sample", "full-image-classification.json");
    await page.waitForFunction(() => (document.getElementById("body") as HTMLTextAreaElement).value.includes("shelf-products-12"));
    await page.click("#run");
    await page.waitForSelector("#report .report", { timeout: 60_000 });

    const states = await nodeStates(page);
    for (const node of GRAPH_NODES) {
      expect(states[node]!.cls, node).toMatch(/state-(done|error)/);
      expect(states[node]!.label, node).toMatch(/^\d+(\.\d)? ms/);
    }
    expect(states.__end__!.cls).toContain("state-done");
    expect(await page.textContent("#status")).toMatch(/^Done in \d+ ms: \d+ findings/);
    const eventKinds = await page.$$eval("#events .event-kind", (els) => els.map((e) => e.textContent));
    expect(eventKinds[0]).toBe("run_started");
    expect(eventKinds.at(-1)).toBe("result");

    const report = page.locator("#report .report");
    await expect.poll(() => report.locator("h1").textContent()).toBe("Diagnosis: shelf-products-12");
    for (const heading of ["Summary", "Findings", "Recommendations", "Training curves", "Node timings"]) {
      expect(await report.locator("h2", { hasText: heading }).count(), heading).toBe(1);
    }
    expect(await report.locator('.chart-panel[data-panel="loss"] svg path').count()).toBeGreaterThan(0);
    expect(await report.locator(".chart .marker").count()).toBeGreaterThan(0);

    await page.screenshot({ path: new URL("debug-page.png", ARTIFACTS).pathname, fullPage: true });
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${svc.url}/`))).toEqual([]);
    await page.close();
  });

  it("shows the service's 400 detail for a request it cannot decode", async () => {
    const { page } = await openPage();
    await page.selectOption("#sample", "bad-request.json");
    await page.waitForFunction(() => (document.getElementById("body") as HTMLTextAreaElement).value.length > 0);
    await page.click("#run");
    await expect.poll(() => page.getAttribute("#status", "data-state")).toBe("error");
    expect(await page.textContent("#status")).toMatch(/^Failed: Error decoding request: training_artifacts/);
    expect(await page.isHidden("#report-panel")).toBe(true);
    await page.close();
  });
});
