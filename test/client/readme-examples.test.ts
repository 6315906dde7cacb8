import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleLines, renderExamples, runExample } from "../../scripts/readme/examples.js";
import { type RunningService, startService } from "../support/http-service.js";

/** The README's `ml-diagnose` examples are what the commands print today (scripts/readme-examples.ts writes them). */

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

let svc: RunningService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

describe("README examples", { timeout: 120_000 }, () => {
  it("match what each command prints; on drift run `npx tsx scripts/readme-examples.ts`", async () => {
    const rendered = await renderExamples(README, (args) => runExample(args, svc.url));
    expect(rendered.split("\n"), "README.md's examples drifted from the commands: run `npx tsx scripts/readme-examples.ts`").toEqual(README.split("\n"));
  });

  it("show the listing without files not sent, the headline and the findings, with the run's folder as …/", () => {
    const printed = {
      stderr: "+ runs/a/metrics.csv → training_artifacts.metrics (Lightning CSVLogger metrics)\n- runs/a/old.csv: not sent: metrics already come from runs/a/metrics.csv\n",
      stdout: "Diagnosis: 1 finding: 1 high\n\n  summary\n\nFindings\n  HIGH     Title [training.x]\n           evidence\n\nWhat to do\n  1. act\n",
    };
    expect(exampleLines(["analyse", "test/fixtures/real/runs"], printed)).toEqual([
      "+ runs/a/metrics.csv → training_artifacts.metrics (Lightning CSVLogger metrics)",
      "Diagnosis: 1 finding: 1 high",
      "  HIGH     Title [training.x]",
      "           evidence",
    ]);
  });
});
