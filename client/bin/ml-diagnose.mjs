#!/usr/bin/env node
// Plain JavaScript so Node runs it as it is from a checkout and after `npm install -g`. It runs the compiled
// command of the production build (dist/client/, left by `npm install`) when there is one, which starts without
// a compiler; from a checkout without a build it registers tsx's ESM loader (as workers/entry.mjs does) and
// runs the TypeScript sources. After editing client/ sources in a built checkout, `npm run build` refreshes the
// build; ML_DIAGNOSE_FROM_SOURCES=1 runs the sources anyway (the tests run a build made for the run instead).
import { existsSync } from "node:fs";

const compiled = new URL("../../dist/client/main.js", import.meta.url);
const useBuild = process.env.ML_DIAGNOSE_FROM_SOURCES !== "1" && existsSync(compiled);
const { main } = useBuild ? await import(compiled.href) : await importSources();

async function importSources() {
  const { register } = await import("tsx/esm/api");
  register();
  return import("../main.ts");
}

// A reader that stops early (`| head`) closes the pipe: what is left to print has no reader, which is no failure of
// the run, so it ends quietly with the run's own exit code instead of an EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
  });
}
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
