// npm run bench [-- --quick] [-- --only a,b] [-- --write]: measures the service against baselines; the record goes
// to the git-ignored bench/out/, or with --write (full profile) to bench/results.json and BENCHMARKS.md, the
// results of suites not run kept as they were measured.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describeMachine, loadAverage } from "./lib/machine.js";
import { describeProfile, parseBenchArgs } from "./lib/options.js";
import { installCleanup, killAllChildren } from "./lib/processes.js";
import { type BenchRecord, mergeRecord, readRecord, renderMarkdown, writeRecord } from "./lib/report.js";
import { type BenchResult, BenchResultSchema, unavailable } from "./lib/result.js";
import { OUT_DIR, ROOT } from "./lib/service.js";
import { round } from "./lib/stats.js";
import { SUITES } from "./suites/index.js";

let options;
try {
  options = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
const unknown = options.only.filter((name) => !SUITES.some((s) => s.name === name));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark(s): ${unknown.join(", ")}; known: ${SUITES.map((s) => s.name).join(", ")}\n`);
  process.exit(2);
}
installCleanup();
mkdirSync(OUT_DIR, { recursive: true });
const profileText = describeProfile(options.profile);
process.stdout.write(`${profileText}\n\n`);

const machine = describeMachine();
const started = performance.now();
const results: BenchResult[] = [];
let failures = 0;
for (const suite of SUITES) {
  if (options.only.length > 0 && !options.only.includes(suite.name)) continue;
  const t0 = performance.now();
  process.stdout.write(`${suite.name} …\n`);
  let result: BenchResult;
  try {
    result = BenchResultSchema.parse(await suite.run(options.profile));
  } catch (err) {
    failures++;
    result = unavailable(suite.name, suite.unit, suite.description, `the benchmark failed: ${(err as Error).message}`);
  }
  killAllChildren();
  result.measured = { date: new Date().toISOString(), commit: machine.commit, dirty: machine.dirty, load: loadAverage() };
  results.push(result);
  const verdict = result.met === undefined ? "" : result.met ? " (target met)" : " (target MISSED)";
  const value = result.value === null ? `unavailable: ${result.note}` : `${round(result.value)} ${result.unit}`;
  const ratio = result.ratio == null ? "" : `, ${round(result.ratio)}× baseline`;
  process.stdout.write(`  ${suite.name}: ${value}${ratio}${verdict} [${Math.round((performance.now() - t0) / 1000)} s]\n`);
}

const fresh: BenchRecord = {
  generated: new Date().toISOString(),
  profile: options.profile.mode,
  profileDescription: profileText,
  durationSeconds: (performance.now() - started) / 1000,
  machine,
  loadAtEnd: loadAverage(),
  results,
};
const names = SUITES.map((s) => s.name);
const json = options.write ? join(ROOT, "bench", "results.json") : join(OUT_DIR, "results.json");
const markdown = options.write ? join(ROOT, "BENCHMARKS.md") : join(OUT_DIR, "BENCHMARKS.md");
const record = options.write ? mergeRecord(fresh, readRecord(json), names) : fresh;
writeRecord(record, json, markdown, names);
process.stdout.write(`\n${renderMarkdown(record, names)}\nwrote ${json} and ${markdown}\n`);
process.stdout.write(`done in ${Math.round(record.durationSeconds)} s\n`);
process.exit(failures > 0 ? 1 : 0);
