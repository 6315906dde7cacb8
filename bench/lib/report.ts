import { writeFileSync } from "node:fs";
import type { MachineInfo } from "./machine.js";
import type { BenchResult, BenchRow } from "./result.js";
import { round } from "./stats.js";

/** What `npm run bench` records: bench/results.json. */
export interface BenchRecord {
  generated: string;
  profile: string;
  profileDescription: string;
  durationSeconds: number;
  machine: MachineInfo;
  /** 1-minute load average when the run ended. */
  loadAtEnd: number;
  results: BenchResult[];
}

const num = (x: number | null | undefined, unit = "") => (x == null ? "—" : `${round(x)}${unit ? ` ${unit}` : ""}`);
const ratio = (x: number | null | undefined) => (x == null ? "—" : `${round(x)}×`);
const met = (m: boolean | undefined) => (m === undefined ? "—" : m ? "yes" : "**no**");
const cell = (s: string) => s.replace(/\|/g, "\\|");

function rowLine(r: BenchRow): string {
  return `| ${cell(r.metric)} | ${num(r.value, r.unit)} | ${num(r.baseline, r.unit)} | ${ratio(r.ratio)} | ${cell(r.target ?? "—")} | ${met(r.met)} |`;
}

function section(r: BenchResult): string {
  const lines = [`### \`${r.name}\``, "", `${r.description}.${r.baselineDescription ? ` Baseline: ${r.baselineDescription}.` : ""}`];
  if (r.note) lines.push("", `> ${r.note}`);
  if (r.rows?.length) {
    lines.push("", "| Measure | Value | Baseline | Ratio | Target | Met |", "|---|---:|---:|---:|---|---|", ...r.rows.map(rowLine));
  }
  return lines.join("\n");
}

/** Renders BENCHMARKS.md: summary table, one section per benchmark, the machine, the date, how to reproduce. */
export function renderMarkdown(record: BenchRecord): string {
  const m = record.machine;
  const summary = record.results.map(
    (r) => `| \`${r.name}\` | ${num(r.value, r.unit)} | ${num(r.baseline, r.unit)} | ${ratio(r.ratio)} | ${cell(r.target ?? "—")} | ${met(r.met)} |`,
  );
  return [
    "# Benchmarks",
    "",
    "What a user of the service feels — latency over real HTTP, LLM parallelism, isolation under load, large",
    "histories, prompt size, knowledge retrieval, checkpoint scanning, start-up — each next to a baseline measured",
    "in the same run on the same machine. This file and `bench/results.json` are written by `npm run bench`;",
    "[docs/benchmarks.md](docs/benchmarks.md) explains each method and what the figures mean.",
    "",
    "## Results",
    "",
    "| Benchmark | Value | Baseline | Ratio | Target | Met |",
    "|---|---:|---:|---:|---|---|",
    ...summary,
    "",
    ...record.results.flatMap((r) => [section(r), ""]),
    "## Run",
    "",
    `- Date: ${record.generated}`,
    `- Profile: ${record.profileDescription}`,
    `- Duration: ${Math.round(record.durationSeconds)} s`,
    `- Machine: ${m.nproc} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.os}, Node ${m.node}`,
    `- Load average (1 min): ${m.loadAtStart} at the start, ${record.loadAtEnd} at the end`,
    `- Commit: ${m.commit ?? "unknown"}${m.dirty ? " (with uncommitted changes)" : ""}`,
    "- Figures are medians of repeated runs; the machine is shared and noisy, so compare ratios, not absolutes.",
    "",
    "## Reproduce",
    "",
    "```sh",
    "npm install",
    "npm run bench              # full run; the record goes to the git-ignored bench/out/",
    "npm run bench -- --write   # full run that updates bench/results.json and BENCHMARKS.md",
    "npm run bench -- --quick   # under two minutes: fewer iterations, smaller sizes",
    "npm run bench -- --only startup,knowledge_query   # a subset",
    "```",
    "",
    "The bench starts the service and the fake OpenAI-compatible server itself, on loopback ports, and stops them;",
    "logs of every process it started are in `bench/out/`. The numpy baseline of `checkpoint_scan` needs `python3`",
    "with `venv`; the bench installs numpy into `.cache/bench-venv` on first use and reports the baseline as",
    "unavailable when it cannot.",
    "",
  ].join("\n");
}

/** Writes bench/results.json and BENCHMARKS.md. */
export function writeRecord(record: BenchRecord, jsonPath: string, markdownPath: string): void {
  // Four significant digits: the machine's noise is far larger than that.
  const rounded = (_key: string, v: unknown) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v);
  writeFileSync(jsonPath, `${JSON.stringify(record, rounded, 2)}\n`);
  writeFileSync(markdownPath, renderMarkdown(record));
}
