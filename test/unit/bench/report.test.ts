import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "../../../bench/lib/options.js";
import { type BenchRecord, renderMarkdown } from "../../../bench/lib/report.js";

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
      rows: [{ metric: "wall | critical", value: 1.1, unit: "", target: "≤ 1.05", met: false }],
    },
    { name: "checkpoint_scan", value: null, unit: "GB/s", description: "scan", note: "the benchmark failed: no file" },
  ],
};

describe("BENCHMARKS.md", () => {
  const md = renderMarkdown(record);

  it("has one summary row per result, with baseline, ratio and a visible miss", () => {
    expect(md).toContain("| `parallel_efficiency` | 1320 ms | 1200 ms | 1.1× | ratio ≤ 1.05 | **no** |");
    expect(md).toContain("| `checkpoint_scan` | — | — | — | — | — |");
  });

  it("explains each result, keeps failure reasons and escapes table pipes", () => {
    expect(md).toContain("### `parallel_efficiency`");
    expect(md).toContain("wall time. Baseline: the critical path.");
    expect(md).toContain("> the benchmark failed: no file");
    expect(md).toContain("| wall \\| critical |");
  });

  it("states the machine, the date, the load and how to reproduce", () => {
    expect(md).toContain("2 cores (Test CPU), 23.5 GiB memory, linux x64, Node v20.20.2");
    expect(md).toContain("2026-11-22T00:00:00.000Z");
    expect(md).toContain("0.5 at the start, 0.7 at the end");
    expect(md).toContain("npm run bench -- --quick");
  });
});

describe("bench arguments", () => {
  it("writes the record only for whole runs", () => {
    expect(parseBenchArgs([])).toMatchObject({ write: false, only: [], profile: { mode: "full" } });
    expect(parseBenchArgs(["--write"])).toMatchObject({ write: true, only: [], profile: { mode: "full" } });
    expect(parseBenchArgs(["--quick"])).toMatchObject({ write: false, profile: { mode: "quick" } });
    expect(parseBenchArgs(["--only", "startup, knowledge_query"])).toMatchObject({ write: false, only: ["startup", "knowledge_query"] });
    expect(() => parseBenchArgs(["--quick", "--write"])).toThrow(/full run only/);
    expect(() => parseBenchArgs(["--only", "startup", "--write"])).toThrow(/full run only/);
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
