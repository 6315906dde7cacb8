import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readRecord, renderMarkdown } from "../../../bench/lib/report.js";
import { SUITES } from "../../../bench/suites/index.js";

describe("BENCHMARKS.md and bench/results.json", () => {
  it("agree: the table is what the record renders, one row per benchmark, in at most 60 lines", () => {
    const record = readRecord("bench/results.json");
    expect(record, "bench/results.json is a bench record").not.toBeNull();
    const markdown = readFileSync("BENCHMARKS.md", "utf8");
    expect(markdown).toBe(renderMarkdown(record!, SUITES.map((s) => s.name)));
    for (const suite of SUITES) expect(markdown).toContain(`| \`${suite.name}\` |`);
    expect(markdown.trimEnd().split("\n").length).toBeLessThanOrEqual(60);
  });
});
