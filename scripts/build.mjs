// The production build (`npm run build`, run by `npm install` through `prepare`): TypeScript's own compiler emits
// JavaScript with source maps, then the files the code reads beside itself at run time are copied next to it.
// The output is written to a sibling folder and renamed into place, so an interrupted build never leaves a
// half-written dist/ that `npm start` would run.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { "out-dir": { type: "string", default: "dist" } } });
const out = resolve(ROOT, values["out-dir"]);
const staging = `${out}.building-${process.pid}`;

/** Run-time files that are not TypeScript, relative to the root; each keeps its place under the output folder. */
const ASSETS = ["web", "knowledge/corpus", "report/report.css", "workers/entry.mjs"];

rmSync(staging, { recursive: true, force: true });
const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const compiled = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", staging], { cwd: ROOT, stdio: "inherit" });
if (compiled.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  console.error(`build: the TypeScript compiler failed (exit ${compiled.status}); fix the errors above, then run \`npm run build\``);
  process.exit(1);
}
for (const asset of ASSETS) {
  const from = join(ROOT, asset);
  if (!existsSync(from)) throw new Error(`build: ${asset} is missing: the service reads it at run time`);
  cpSync(from, join(staging, asset), { recursive: true });
}
rmSync(out, { recursive: true, force: true });
renameSync(staging, out);
console.log(`build: ${values["out-dir"]}/ ready`);
