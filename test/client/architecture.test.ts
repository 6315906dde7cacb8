import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * ARCHITECTURE.md "Growing the house": the client talks to the service over HTTP only. Everything `ml-diagnose`
 * loads, followed import by import from client/main.ts, stays out of the server, the graph's orchestration and the
 * analyzers: only request/response schemas and file readers are shared.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
/** Imports that load code (`import type` is erased at run time, so it is not followed). */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s+"(\.[^"]+)"|import\("(\.[^"]+)"\)/g;


function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2])!;
      if (!spec.endsWith(".js") && !spec.endsWith(".ts")) continue;
      visit(relative(ROOT, join(ROOT, dirname(file), spec.replace(/\.js$/, ".ts"))));
    }
  };
  visit(entry);
  return seen;
}

/** What the client may load outside client/: schemas, readers of file formats, JSON helpers. */
const ALLOWED = [
  /^artifacts\/(request|request-limits|context|format-path|language|nesting|json-values|tolerant-json|float64-column)\.ts$/,
  // The MLflow pull's own readers of run files (what a file is, by name and content), not its HTTP client.
  /^artifacts\/mlflow\/(discover|documents|files|sniff|schemas|errors|map-settled|uri-rules|reference)\.ts$/,
  /^artifacts\/mlflow\/build\/(checks|dataset|training)\.ts$/,
  // The ground floor (ARCHITECTURE.md): findings, agent results, the response, trace spans, grounding counts.
  /^domain\/[a-z-]+\.ts$/,
  // The standalone HTML report, which --record-to-mlflow writes into the run from the response it received.
  /^report\/(render|chart|curves|grounding|html|markers|scale|schema|sections)\.ts$/,
  /^nodes\/[a-z]+\/schema\.ts$/,
  /^nodes\/checkpoint\/file\/[a-z0-9-]+\.ts$/,
  /^nodes\/(training|checks|dataset)\/parse\/[a-z0-9-]+\.ts$/,
  /^nodes\/training\/(names|params|metric-quantities)\.ts$/,
];

describe("client/ dependencies", () => {
  it("reach no server, graph orchestration or analyzer module", () => {
    const outside = [...reachable("client/main.ts")].filter((f) => !f.startsWith("client/") && !f.startsWith("node_modules/"));
    const forbidden = outside.filter((f) => !ALLOWED.some((re) => re.test(f)));
    expect(forbidden).toEqual([]);
    expect(outside.some((f) => f.startsWith("server/") || f.startsWith("llm/") || /\/(detectors|node)\b/.test(f))).toBe(false);
  });
});
