// Rewrites the README's `ml-diagnose` example blocks from what the commands print today, against a service started
// here in deterministic mode (no model configured). Run: npx tsx scripts/readme-examples.ts [--check]
// With --check it changes nothing and exits 1 when the README differs (what test/client/readme-examples.test.ts asserts).
import { readFileSync, writeFileSync } from "node:fs";
import { startService } from "../test/support/http-service.js";
import { renderExamples, runExample } from "./readme/examples.js";

const README = new URL("../README.md", import.meta.url);
// The examples' paths are relative to the checkout.
process.chdir(new URL("..", import.meta.url).pathname);
const service = await startService({ SERVICE_LOG_LEVEL: "error" });
try {
  const before = readFileSync(README, "utf8");
  const after = await renderExamples(before, (args) => runExample(args, service.url));
  if (process.argv.includes("--check")) {
    if (after !== before) {
      console.error("README.md: the ml-diagnose examples differ from what the commands print; run npx tsx scripts/readme-examples.ts");
      process.exitCode = 1;
    }
  } else if (after !== before) {
    writeFileSync(README, after);
    console.log("README.md: examples rewritten");
  } else console.log("README.md: examples up to date");
} finally {
  await service.close();
}
