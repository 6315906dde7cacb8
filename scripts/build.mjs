// The production build (`npm run build`, run by `npm install` through `prepare`): TypeScript's own compiler emits
// JavaScript with source maps, the files the code reads beside itself at run time are copied next to it, and
// esbuild bundles the server's compiled entry with its packages into one file in the entry's place. The output is
// written to a sibling folder and renamed into place, so an interrupted build never leaves a half-written dist/
// that `npm start` would run.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { "out-dir": { type: "string", default: "dist" } } });
const out = resolve(ROOT, values["out-dir"]);
const staging = `${out}.building-${process.pid}`;

/**
 * Run-time files that are not TypeScript, relative to the root; each keeps its place under the output folder.
 * package.json: `ml-diagnose --version` reads it one folder above the compiled client/.
 */
const ASSETS = ["web", "knowledge/corpus", "report/report.css", "workers/entry.mjs", "package.json"];

/**
 * Packages left to node_modules: piscina starts its workers from its own files, BullMQ reads its Lua scripts
 * beside itself, and they, ioredis and DuckDB (native) are required at run time only when configured; mermaid
 * is served as a file; playwright-core is for tests. h5wasm (5.8 MB, HDF5 compiled to WebAssembly as JavaScript) is
 * imported only when an HDF5 file is read: bundled, every start-up would parse it (startup 311 → 921 ms).
 */
const EXTERNAL = ["piscina", "bullmq", "ioredis", "@duckdb/*", "mermaid", "playwright-core", "h5wasm"];

/**
 * Start-up is mostly module loading: about 1,200 files (@langchain/core 249, langsmith 119, zod 107, ours ~400),
 * each resolved, read and compiled apart, 0.6 s of CPU; the same code as one file loads in 0.17 s. The bundle of
 * the compiled entry (server/main.js, as tsc wrote it, so TypeScript's own output is what runs) replaces it in
 * place, with a source map chained through tsc's down to the TypeScript sources. Every other compiled file stays:
 * the worker threads, the client and the tests import them one by one.
 */
async function bundleServer(dir) {
  const entry = join(dir, "server", "main.js");
  // Written at the entry's depth under its own name, so the map's relative paths and its name hold once moved.
  const bundled = join(dir, "bundle", "main.js");
  await build({
    entryPoints: [entry],
    outfile: bundled,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: EXTERNAL,
    sourcemap: "linked",
    // Stack traces need the mappings only; the sources are in the repository.
    sourcesContent: false,
    // CommonJS packages (express and its middleware) call require() for Node's own modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [ownModuleUrls(dir, dirname(entry))],
    logLevel: "warning",
  });
  renameSync(bundled, entry);
  renameSync(`${bundled}.map`, `${entry}.map`);
  rmSync(dirname(bundled), { recursive: true });
}

/**
 * Our modules find their run-time files (the knowledge corpus, the report CSS, the web folder, the worker entry)
 * relative to `import.meta.url`; inside the bundle that would be the bundle's URL, so each keeps its own: the URL
 * its compiled file has beside the bundle.
 */
function ownModuleUrls(dir, bundleDir) {
  return {
    name: "own-module-urls",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(dir + sep)) return undefined;
        const text = readFileSync(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        const own = relative(bundleDir, args.path).split(sep).join("/");
        return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * The knowledge corpus indexed once here rather than at every start (YAML, zod and MiniSearch were ~60 ms of CPU
 * to ready): the compiled knowledge modules index the copied corpus exactly as a start from the sources does, and
 * their snapshot module writes the result beside them for the bundle to read back with one JSON.parse.
 */
async function snapshotKnowledge(dir) {
  const { indexCorpus, writeSnapshot } = await import(pathToFileURL(join(dir, "knowledge", "snapshot.js")).href);
  writeSnapshot(indexCorpus(join(dir, "knowledge", "corpus")), join(dir, "knowledge", "corpus-index.json"));
}

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
try {
  await snapshotKnowledge(staging);
} catch (err) {
  rmSync(staging, { recursive: true, force: true });
  console.error(`build: indexing the knowledge corpus failed: ${err.message}`);
  process.exit(1);
}
try {
  await bundleServer(staging);
} catch (err) {
  rmSync(staging, { recursive: true, force: true });
  console.error(`build: bundling the server failed: ${err.message}`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
renameSync(staging, out);
console.log(`build: ${values["out-dir"]}/ ready`);
