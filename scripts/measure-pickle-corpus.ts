// Measures the checkpoint scanner's pickle safety on picklescan's public test corpus and compares it with
// picklescan, modelscan and fickling run on the same files. Prints a markdown table for docs/checkpoints.md.
//
// Setup (by hand, once; nothing here is committed): copy the test data of github.com/mmaitre314/picklescan
// (tests/data and tests/data2) into .cache/picklescan-corpus/tests/, e.g.
//   git clone --depth 1 https://github.com/mmaitre314/picklescan /tmp/picklescan
//   mkdir -p .cache/picklescan-corpus/tests && cp -r /tmp/picklescan/tests/data /tmp/picklescan/tests/data2 .cache/picklescan-corpus/tests/
// and create the tools' venv:
//   python3 -m venv .cache/picklescan-tools/venv
//   .cache/picklescan-tools/venv/bin/pip install "picklescan[7z]==1.0.5" modelscan==0.8.8 fickling==0.1.12 \
//     typing_extensions "numpy==1.26.4"
// Usage: npx tsx scripts/measure-pickle-corpus.ts [--refresh-tools]   (exit 1 on any gap against picklescan)
// The tools' verdicts are cached in .cache/picklescan-corpus/tool-verdicts.json (they do not change with our code);
// --refresh-tools runs them again. Without the venv, the tool columns read "not installed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildCheckpointInfo } from "../nodes/checkpoint/build-info.js";
import { detectCheckpointFindings } from "../nodes/checkpoint/detect.js";
import { scanCheckpointFile } from "../nodes/checkpoint/file/scan.js";

const ROOT = new URL("../.cache/picklescan-corpus/", import.meta.url).pathname;
const VENV = new URL("../.cache/picklescan-tools/venv/bin/", import.meta.url).pathname;
const CACHE = join(ROOT, "tool-verdicts.json");
const { values } = parseArgs({ options: { "refresh-tools": { type: "boolean", default: false } } });

/**
 * The files picklescan's own tests (tests/test_scanner.py) expect to be clean: they assert infected_files == 0
 * for these and ≥ 1 for every other file of tests/data and tests/data2.
 */
const BENIGN = new Set([
  "data/benign0_v0.pkl", "data/benign0_v3.pkl", "data/benign0_v4.pkl", "data/benign_password_protected.zip",
  "data/bad_pytorch.pt", "data/not_a_pickle.bin", "data/pytorch_model.bin", "data/new_pytorch_model.bin",
  "data2/int_array.npy", "data2/int_arrays.npz", "data2/int_arrays_compressed.npz", "data2/object_array.npy",
  "data2/object_arrays.npz", "data2/object_arrays_compressed.npz",
]);

/** A tool's answer on one file. */
type Verdict = "flagged" | "clean" | "medium" | "error" | "skipped" | "not installed";

function listCorpus(): string[] {
  if (!existsSync(join(ROOT, "tests"))) throw new Error(`no corpus at ${ROOT}tests: copy picklescan's tests/data and tests/data2 there (see the header)`);
  return ["data", "data2"].flatMap((d) => readdirSync(join(ROOT, "tests", d)).sort().map((f) => `${d}/${f}`));
}

async function ours(file: string): Promise<Verdict> {
  const path = join(ROOT, "tests", file);
  const scan = await scanCheckpointFile(path);
  const findings = detectCheckpointFindings(buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: null }));
  if (findings.some((f) => f.id === "checkpoint.unsafe_pickle" && f.severity === "critical")) return "flagged";
  if (findings.some((f) => (f.id === "checkpoint.unsafe_pickle" || f.id === "checkpoint.unverified_content") && f.severity === "medium")) return "medium";
  return "clean";
}

/** Runs one tool's CLI in a scratch folder (fickling writes a results file into its working directory). */
function runTool(tool: "picklescan" | "modelscan" | "fickling", path: string, cwd: string): Verdict {
  const bin = join(VENV, tool);
  if (!existsSync(bin)) return "not installed";
  const args = tool === "fickling" ? ["--check-safety", path] : ["-p", path];
  const r = spawnSync(bin, args, { cwd, encoding: "utf8", timeout: 120_000 });
  const out = `${r.stdout}${r.stderr}`;
  if (tool === "picklescan") {
    const infected = /Infected files: (\d+)/.exec(out);
    return infected && Number(infected[1]) > 0 ? "flagged" : r.status === 0 ? "clean" : "error";
  }
  if (tool === "modelscan") return r.status === 1 ? "flagged" : r.status === 0 ? "clean" : r.status === 3 ? "skipped" : "error";
  return r.status === 1 ? "flagged" : r.status === 0 ? "clean" : "error";
}

type ToolVerdicts = Record<string, { picklescan: Verdict; modelscan: Verdict; fickling: Verdict }>;

function toolVerdicts(files: readonly string[]): ToolVerdicts {
  const cached: ToolVerdicts = existsSync(CACHE) && !values["refresh-tools"] ? JSON.parse(readFileSync(CACHE, "utf8")) : {};
  const cwd = mkdtempSync(join(tmpdir(), "pickle-tools-"));
  for (const file of files) {
    if (cached[file]) continue;
    const path = join(ROOT, "tests", file);
    cached[file] = { picklescan: runTool("picklescan", path, cwd), modelscan: runTool("modelscan", path, cwd), fickling: runTool("fickling", path, cwd) };
    process.stderr.write(".");
  }
  writeFileSync(CACHE, JSON.stringify(cached, null, 1));
  return cached;
}

const files = listCorpus();
const tools = toolVerdicts(files);
const rows: string[] = [];
const tally = { malicious: 0, benign: 0, ours: { caught: 0, falseAlarm: 0, benignMedium: 0 }, picklescan: { caught: 0, falseAlarm: 0 }, modelscan: { caught: 0, falseAlarm: 0 }, fickling: { caught: 0, falseAlarm: 0 } };
const missed: string[] = [];
const notCritical: string[] = [];
const overFlagged: string[] = [];
for (const file of files) {
  const benign = BENIGN.has(file);
  const mine = await ours(file);
  const t = tools[file]!;
  benign ? tally.benign++ : tally.malicious++;
  if (benign) {
    if (mine === "flagged") tally.ours.falseAlarm++;
    if (mine === "medium") tally.ours.benignMedium++;
  } else if (mine === "flagged") tally.ours.caught++;
  else missed.push(file);
  // The gate is picklescan's own verdict on the file, whatever its tests call it.
  if (t.picklescan === "flagged" && mine !== "flagged") notCritical.push(file);
  if (t.picklescan === "clean" && mine === "flagged") overFlagged.push(file);
  for (const name of ["picklescan", "modelscan", "fickling"] as const) {
    if (t[name] === "flagged") benign ? tally[name].falseAlarm++ : tally[name].caught++;
  }
  const mark = (v: Verdict) => (v === "flagged" ? "**flagged**" : v);
  rows.push(`| ${file} | ${benign ? "benign" : "malicious"} | ${mine === "flagged" ? "**critical**" : mine === "medium" ? "medium (not verified)" : "—"} | ${mark(t.picklescan)} | ${mark(t.modelscan)} | ${mark(t.fickling)} |`);
}

const pct = (a: number, b: number) => `${a}/${b} (${((100 * a) / b).toFixed(0)} %)`;
console.log(`Corpus: ${files.length} files of picklescan's tests/data and tests/data2 (${tally.malicious} malicious, ${tally.benign} benign per picklescan's own test expectations).\n`);
console.log("| | malicious flagged | benign flagged |");
console.log("|---|---|---|");
console.log(`| this service (critical) | ${pct(tally.ours.caught, tally.malicious)} | ${tally.ours.falseAlarm} (medium "not verified": ${tally.ours.benignMedium}) |`);
for (const name of ["picklescan", "modelscan", "fickling"] as const) console.log(`| ${name} | ${pct(tally[name].caught, tally.malicious)} | ${tally[name].falseAlarm} |`);
const list = (files: readonly string[]) => (files.length === 0 ? "none" : files.join(", "));
console.log(`\nMalicious files not flagged critical by this service: ${list(missed)}.`);
console.log(`Files picklescan flags that this service does not flag critical: ${list(notCritical)}.`);
console.log(`Files picklescan finds clean that this service flags critical: ${list(overFlagged)}.\n`);
console.log("| file | picklescan's tests | this service | picklescan | modelscan | fickling |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
// A gap against picklescan fails the run, so the script can gate a change to the scanner.
if (missed.length + notCritical.length + overFlagged.length + tally.ours.falseAlarm > 0) process.exitCode = 1;
