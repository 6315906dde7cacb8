import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main } from "../../client/main.js";
import { colourWanted, palette } from "../../client/render/colour.js";
import { digestResponse } from "../../client/render/digest.js";
import { renderMarkdown } from "../../client/render/markdown.js";
import { renderText } from "../../client/render/text.js";
import { AnalysisResponseSchema } from "../../domain/result.js";

/**
 * Renderings of one recorded response (the service's answer to test/fixtures/samples/full-image-classification.json
 * in deterministic mode), with an agent failure added so its line shows. The snapshots under __snapshots__/ are
 * reviewed by eye: a change to them is a change to what people read.
 */
const recorded = AnalysisResponseSchema.parse(JSON.parse(readFileSync(new URL("../fixtures/client/response-image-classification.json", import.meta.url), "utf8")));
const response = { ...recorded, error_messages: { DatasetArtifactsAnalyzer: "dataset_artifacts.statistics: no split has num_rows" } };
const digest = digestResponse(response);

describe("renderings", () => {
  it("text: headline, summary, findings by severity with evidence, recommendations with sources, failed agents", async () => {
    await expect(renderText(digest, palette(false))).toMatchFileSnapshot("__snapshots__/render-text.txt");
  });

  it("markdown: the CI job summary", async () => {
    await expect(renderMarkdown(digest)).toMatchFileSnapshot("__snapshots__/render-markdown.md");
  });

  it("lists every finding once, most severe first, and counts them in the headline", () => {
    const all = Object.values(response.agent_results).flatMap((r) => r.findings);
    const text = renderText(digest, palette(false));
    expect(text.split("\n")[0]).toBe(`Diagnosis of ${response.dataset_name}: ${all.length} findings: ${["critical", "high", "medium", "low", "info"].flatMap((s) => {
      const n = all.filter((f) => f.severity === s).length;
      return n > 0 ? [`${n} ${s}`] : [];
    }).join(", ")}`);
    for (const f of all) expect(text).toContain(`[${f.id}]`);
    const ranks = digest.findings.map((f) => ["critical", "high", "medium", "low", "info"].indexOf(f.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });
});

describe("colour", () => {
  it("only on a TTY, never with NO_COLOR (any non-empty value) or --no-color", () => {
    expect(colourWanted(true, {}, false)).toBe(true);
    expect(colourWanted(false, {}, false)).toBe(false);
    expect(colourWanted(true, { NO_COLOR: "1" }, false)).toBe(false);
    expect(colourWanted(true, { NO_COLOR: "" }, false)).toBe(true);
    expect(colourWanted(true, {}, true)).toBe(false);
  });

  /** The command itself, in-process, with a stdout that says it is a terminal (a child process never is). */
  async function helpOnTty(env: Record<string, string>, args: string[]): Promise<{ out: string; err: string }> {
    let out = "";
    let err = "";
    await main(["analyse", "--dry-run", "test/fixtures/training/keras-history.json", ...args], {
      stdout: { isTTY: true, write: (t: string) => (out += t) },
      stderr: { isTTY: true, write: (t: string) => (err += t) },
      env,
    });
    return { out, err };
  }

  it("the file listing on a terminal is coloured unless NO_COLOR or --no-color", async () => {
    expect((await helpOnTty({}, [])).err).toContain("\u001b[32m+\u001b[0m");
    expect((await helpOnTty({ NO_COLOR: "1" }, [])).err).not.toContain("\u001b[");
    expect((await helpOnTty({}, ["--no-color"])).err).not.toContain("\u001b[");
  });

  it("severities are coloured in the text report on a terminal", () => {
    const text = renderText(digest, palette(true));
    expect(text).toContain("\u001b[31mHIGH    \u001b[0m");
  });
});
