import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { MachineInfo } from "./machine.js";
import { type BenchResult, BenchResultSchema } from "./result.js";
import { round } from "./stats.js";

/** What `npm run bench -- --write` records: bench/results.json, from which BENCHMARKS.md is rendered. */
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

const BenchRecordSchema = z.looseObject({ generated: z.string(), results: z.array(BenchResultSchema) });

/** The record of bench/results.json, or null when there is none or it is not one. */
export function readRecord(path: string): BenchRecord | null {
  try {
    const parsed = BenchRecordSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? (parsed.data as unknown as BenchRecord) : null;
  } catch {
    return null;
  }
}

/**
 * The record after a run of `suites`: the fresh results replace those of the same name, the results of suites not
 * run are kept from `previous` as they were measured, all in the order of `suites`; suites that no longer exist leave.
 */
export function mergeRecord(fresh: BenchRecord, previous: BenchRecord | null, suites: readonly string[]): BenchRecord {
  // A result from before results carried their own date is dated by the record it came in.
  const dated = (r: BenchResult): BenchResult =>
    r.measured || !previous ? r : { ...r, measured: { date: previous.generated, commit: previous.machine?.commit ?? null, dirty: previous.machine?.dirty ?? false, load: previous.machine?.loadAtStart ?? 0 } };
  const byName = new Map((previous?.results ?? []).map((r) => [r.name, dated(r)]));
  for (const r of fresh.results) byName.set(r.name, r);
  return { ...fresh, results: suites.flatMap((name) => byName.get(name) ?? []) };
}

const num = (x: number | null | undefined, unit = "") => (x == null ? "—" : `${round(x)}${unit ? ` ${unit}` : ""}`);
const ratio = (x: number | null | undefined) => (x == null ? "—" : `${round(x)}×`);
const met = (m: boolean | undefined) => (m === undefined ? "—" : m ? "yes" : "**no**");
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ");
const short = (s: string) => (s.length > 160 ? `${s.slice(0, 159)}…` : s);

function measuredCell(r: BenchResult): string {
  const m = r.measured;
  return m ? `${m.date.slice(0, 10)} · ${m.commit ?? "?"}${m.dirty ? "+" : ""} · load ${round(m.load)}` : "—";
}

/** A result's rows of the table: its own, then the rows it declares for the table. */
function tableRows(r: BenchResult): string[] {
  const note = r.headline ?? (r.value === null && r.note ? short(r.note) : "");
  const own = `| \`${r.name}\` | ${num(r.value, r.unit)} | ${num(r.baseline, r.unit)} | ${ratio(r.ratio)} | ${cell(r.target ?? "—")} | ${met(r.met)} | ${measuredCell(r)} | ${cell(note)} |`;
  const declared = (r.rows ?? []).filter((row) => row.inTable);
  return [own, ...declared.map((row) => `| ↳ ${cell(row.metric)} | ${num(row.value, row.unit)} | ${num(row.baseline, row.unit)} | ${ratio(row.ratio)} | ${cell(row.target ?? "—")} | ${met(row.met)} | | |`)];
}

/**
 * BENCHMARKS.md: one table, a row per suite of `suites` (in that order; a suite with no result yet says so), then
 * how to read and reproduce it. The sub-measures, descriptions and raw samples stay in bench/results.json.
 */
export function renderMarkdown(record: BenchRecord, suites: readonly string[]): string {
  const byName = new Map(record.results.map((r) => [r.name, r]));
  const rows = suites.flatMap((name) => {
    const r = byName.get(name);
    return r ? tableRows(r) : [`| \`${name}\` | — | — | — | — | — | — | not measured yet: \`npm run bench -- --only ${name} --write\` |`];
  });
  const m = record.machine;
  return [
    "# Benchmarks",
    "",
    "Each figure next to a baseline measured in the same run on the same machine. Written, with `bench/results.json`,",
    "by `npm run bench -- --write` (`--only a,b --write` re-measures those rows and keeps the others as measured).",
    "",
    "| Benchmark | Value | Baseline | Ratio | Target | Met | Measured | Note |",
    "|---|---:|---:|---:|---|---|---|---|",
    ...rows,
    "",
    "- Ratio is value ÷ baseline. Measured: date, commit (+: with uncommitted changes) and 1-minute load average.",
    `- Machine of the last write: ${m.nproc} cores (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; shared`,
    "  and noisy, so compare ratios, not absolutes. A row without a target is information (`framework_floor`).",
    "- What each benchmark measures and how: [docs/benchmarks.md](docs/benchmarks.md); every sub-measure and raw",
    "  sample: `bench/results.json`; earlier attempts and withdrawn targets: [docs/benchmarks-history.md](docs/benchmarks-history.md).",
    "- Reproduce: `npm run bench` (full, to the git-ignored `bench/out/`), `-- --quick`, `-- --only startup,grounding`.",
    "",
  ].join("\n");
}

/** Writes bench/results.json and BENCHMARKS.md from the same record. */
export function writeRecord(record: BenchRecord, jsonPath: string, markdownPath: string, suites: readonly string[]): void {
  // Four significant digits: the machine's noise is far larger than that.
  const rounded = (_key: string, v: unknown) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v);
  const json = `${JSON.stringify(record, rounded, 2)}\n`;
  writeFileSync(jsonPath, json);
  // Rendered from the JSON as written, so the table and the file agree to the digit.
  writeFileSync(markdownPath, renderMarkdown(JSON.parse(json) as BenchRecord, suites));
}
