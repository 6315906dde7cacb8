// Records what the training analyzer makes of the generated large histories (test/support/large-histories.ts)
// into test/fixtures/training/large-histories/, which test/unit/training/large-histories.test.ts compares against.
// Re-record only when a detector change is meant to change findings: the pins exist so that speed work cannot.
// Run: npx tsx scripts/record-large-histories.ts
import { writeFileSync } from "node:fs";
import { largeHistoryCases, trainingOutputs } from "../test/support/large-histories.js";

const dir = new URL("../test/fixtures/training/large-histories/", import.meta.url);
for (const [name, artifact] of largeHistoryCases()) {
  const file = new URL(`${name.replaceAll(/[^a-z0-9]+/gi, "-").toLowerCase()}.json`, dir);
  writeFileSync(file, `${JSON.stringify(trainingOutputs(artifact()), null, 1)}\n`);
  console.log(`${name} → ${file.pathname}`);
}
