import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import express, { type RequestHandler, Router } from "express";
import { formatPath } from "../../artifacts/request.js";
import { REPORT_CSS, renderReport, renderReportPage } from "../../report/render.js";
import { ReportInputSchema } from "../../report/schema.js";
import { ServiceError } from "../errors.js";
import { parseJsonBody } from "../json-body.js";

const WEB_DIR = fileURLToPath(new URL("../../web/", import.meta.url));
/** Shipped with the page (and copied into dist/ with web/); the tests read them through test/fixtures/samples. */
const SAMPLES_DIR = fileURLToPath(new URL("../../web/samples/", import.meta.url));
const MERMAID_BUNDLE = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");

/**
 * Every resource of the page comes from this server (no CDN, no inline script); `connect-src 'self'` means the
 * page cannot send anything elsewhere even if a library tried. Mermaid writes inline styles into its SVG.
 */
const DEBUG_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SAMPLE_NAME = /^[a-z0-9][a-z0-9-]*\.json$/;

/** The sample requests shipped with the repository (public, written for this project), by file name. */
function listSamples(): string[] {
  try {
    return readdirSync(SAMPLES_DIR).filter((f) => SAMPLE_NAME.test(f)).sort();
  } catch {
    return [];
  }
}

/**
 * GET /debug (the page), its assets and sample requests, and POST /debug/report (a response → report HTML),
 * whose body comes in through `intake` (server/intake.ts) like an analysis's.
 */
export function createDebugRouter(intake: RequestHandler[]): Router {
  const router = Router();
  const samples = listSamples();
  const noStore = { "cache-control": "no-cache" };

  // Every answer under /debug carries the page's policy, whichever path serves the page (/debug/assets/index.html too).
  router.use("/debug", (_req, res, next) => {
    res.set("content-security-policy", DEBUG_CSP);
    next();
  });
  router.get("/debug", (_req, res) => {
    res.set(noStore).sendFile("index.html", { root: WEB_DIR });
  });
  router.get("/debug/assets/mermaid.min.js", (_req, res) => {
    res.sendFile(MERMAID_BUNDLE, { maxAge: "1d" });
  });
  router.get("/debug/assets/report.css", (_req, res) => {
    res.type("text/css").set(noStore).send(REPORT_CSS);
  });
  router.use("/debug/assets", express.static(WEB_DIR, { index: false, setHeaders: (res) => res.set(noStore) }));

  router.get("/debug/samples", (_req, res) => {
    res.json(samples.map((file) => ({ name: file.replace(/\.json$/, ""), file })));
  });
  router.get("/debug/samples/:file", (req, res) => {
    const file = req.params.file;
    if (!samples.includes(file)) throw new ServiceError("NOT_FOUND", 404, `no sample request named ${JSON.stringify(file)}; GET /debug/samples lists them`);
    // Served as text: one sample holds a bare NaN, as Python writes it, which the analyse route accepts.
    res.type("application/json").sendFile(file, { root: SAMPLES_DIR });
  });

  router.post("/debug/report", ...intake, async (req, res) => {
    const parsed = ReportInputSchema.safeParse(await parseJsonBody(req.body as Buffer));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ServiceError("BAD_REQUEST", 400, `${formatPath(issue.path)}: ${issue.message}; expected an analysis response`);
    }
    // format=page: the standalone document (what POST /v1/report returns), for the page's "Save report".
    const page = req.query.format === "page";
    res.type("text/html; charset=utf-8").send(page ? renderReportPage(parsed.data) : renderReport(parsed.data).text);
  });
  return router;
}
