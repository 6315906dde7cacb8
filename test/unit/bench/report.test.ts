import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "../../../bench/lib/options.js";
import { type BenchRecord, mergeRecord, renderMarkdown } from "../../../bench/lib/report.js";

const record: BenchRecord = {
  generated: "2026-11-22T00:00:00.000Z",
  profile: "full",
  profileDescription: "full profile: test",
  durationSeconds: 12.3,
  machine: { nproc: 2, memoryGiB: 23.5, cpuModel: "Test CPU", node: "v20.20.2", os: "linux x64", commit: "abc1234", dirty: false, loadAtStart: 0.5 },
  loadAtEnd: 0.7,
  results: [
    {
      name: "parallel_efficiency",
      value: 1320,
      unit: "ms",
      baseline: 1200,
      ratio: 1.1,
      target: "ratio ≤ 1.05",
      met: false,
      description: "wall time",
      baselineDescription: "the critical path",
      headline: "wall over the path",
      measured: { date: "2026-11-22T00:00:00.000Z", commit: "abc1234", dirty: false, load: 0.6 },
      rows: [
        { metric: "wall | critical", value: 1.1, unit: "", target: "≤ 1.05", met: false, inTable: true },
        { metric: "hidden row", value: 2, unit: "" },
      ],
    },
    { name: "checkpoint_scan", value: null, unit: "GB/s", description: "scan", note: "the benchmark failed: no file" },
  ],
};

const SUITES = ["parallel_efficiency", "checkpoint_scan", "grounding"];

describe("BENCHMARKS.md", () => {
  const md = renderMarkdown(record, SUITES);

  it("has one row per suite, with baseline, ratio, a visible miss, when it was measured and its note", () => {
    expect(md).toContain("| `parallel_efficiency` | 1320 ms | 1200 ms | 1.1× | ratio ≤ 1.05 | **no** | 2026-11-22 · abc1234 · load 0.6 | wall over the path |");
    expect(md).toContain("| `checkpoint_scan` | — | — | — | — | — | — | the benchmark failed: no file |");
    expect(md).toContain("| `grounding` | — | — | — | — | — | — | not measured yet: `npm run bench -- --only grounding --write` |");
  });

  it("shows the rows a suite declares for the table under it, escaping table pipes", () => {
    expect(md).toContain("| ↳ wall \\| critical | 1.1 | — | — | ≤ 1.05 | **no** | | |");
    expect(md).not.toContain("hidden row");
  });

  it("states the machine and how to reproduce, in at most 60 lines", () => {
    expect(md).toContain("2 cores (Test CPU), 23.5 GiB, linux x64, Node v20.20.2");
    expect(md).toContain("npm run bench -- --write");
    expect(md.trimEnd().split("\n").length).toBeLessThanOrEqual(60);
  });
});

describe("mergeRecord", () => {
  it("replaces the results of the suites run, keeps the others as measured, in suite order, and drops suites that left", () => {
    const previous = { ...record, results: [{ name: "grounding", value: 1, unit: "ms", description: "old" }, { name: "gone", value: 2, unit: "ms", description: "removed suite" }, record.results[1]!] };
    const fresh = { ...record, results: [{ ...record.results[1]!, value: 3, note: undefined }] };
    const merged = mergeRecord(fresh, previous, SUITES);
    expect(merged.results.map((r) => [r.name, r.value])).toEqual([["checkpoint_scan", 3], ["grounding", 1]]);
    expect(mergeRecord(fresh, null, SUITES).results.map((r) => r.name)).toEqual(["checkpoint_scan"]);
  });
});

describe("bench arguments", () => {
  it("writes the record with the full profile only, for every suite or a subset", () => {
    expect(parseBenchArgs([])).toMatchObject({ write: false, only: [], profile: { mode: "full" } });
    expect(parseBenchArgs(["--write"])).toMatchObject({ write: true, only: [], profile: { mode: "full" } });
    expect(parseBenchArgs(["--quick"])).toMatchObject({ write: false, profile: { mode: "quick" } });
    expect(parseBenchArgs(["--only", "startup, knowledge_query"])).toMatchObject({ write: false, only: ["startup", "knowledge_query"] });
    expect(() => parseBenchArgs(["--quick", "--write"])).toThrow(/full profile only/);
    expect(parseBenchArgs(["--only", "startup", "--write"])).toMatchObject({ write: true, only: ["startup"] });
    expect(() => parseBenchArgs(["--fast"])).toThrow();
  });

  it("keeps the quick profile smaller than the full one in every knob", () => {
    const full = parseBenchArgs([]).profile;
    const quick = parseBenchArgs(["--quick"]).profile;
    expect(Math.max(...quick.historySizes)).toBeLessThan(Math.max(...full.historySizes));
    expect(quick.checkpointBytes).toBeLessThan(full.checkpointBytes);
    expect(quick.loadSeconds).toBeLessThan(full.loadSeconds);
  });
});
