import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { largeHistoryCases, trainingOutputs } from "../../support/large-histories.js";

// Findings, facts and digest of 10^5-step generated histories, recorded by scripts/record-large-histories.ts
// before the training path was made faster (issue 18): binning, sampled noise, block baselines and shared
// per-series statistics must give exactly what the straightforward code gave.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/training/large-histories/${name.replaceAll(/[^a-z0-9]+/gi, "-").toLowerCase()}.json`, import.meta.url), "utf8")) as unknown;

describe("training analysis of 10^5-step generated histories", () => {
  it.each(largeHistoryCases())("%s: the recorded findings, facts and digest", (name, artifact) => {
    expect(trainingOutputs(artifact())).toEqual(fixture(name));
  });
});
