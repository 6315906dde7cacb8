import { describe, expect, it } from "vitest";
import { progressView } from "../../client/cli/progress.js";
import { palette } from "../../client/render/colour.js";

/** The service's run events (docs/debugging.md) as the progress display receives them. */
const EVENTS = [
  { event: "run_started", data: { request_id: "r", artifacts: ["training_artifacts"] } },
  { event: "node_started", data: { node: "route", step: 1, start_ms: 0 } },
  { event: "node_finished", data: { node: "route", step: 1, start_ms: 0, duration_ms: 1, outcome: "ok", findings: null, error: null } },
  { event: "node_started", data: { node: "analyzeTraining", step: 2, start_ms: 1 } },
  { event: "node_finished", data: { node: "analyzeTraining", step: 2, start_ms: 1, duration_ms: 420, outcome: "error", findings: null, error: "metrics: no numeric column" } },
];

function feed(isTTY: boolean): string {
  let out = "";
  const view = progressView({ isTTY, write: (t: string) => (out += t) }, palette(false));
  for (const e of EVENTS) view.onEvent(e);
  view.done();
  return out;
}

describe("progress display", () => {
  it("on a terminal: one line redrawn per node event, a failure kept on its own line, the line cleared at the end", () => {
    const out = feed(true);
    const frames = out.split("\r\u001b[2K");
    expect(frames).toContain("  analysing: ✓ route  ▸ analyzeTraining");
    expect(out).toContain("  ✗ analyzeTraining 0.4 s metrics: no numeric column\n");
    expect(out.endsWith("\r\u001b[2K")).toBe(true);
  });

  it("elsewhere (--progress into a pipe): one plain line per event", () => {
    expect(feed(false).split("\n")).toEqual([
      "… analysing training_artifacts",
      "  ▸ route",
      "  ✓ route 0.0 s",
      "  ▸ analyzeTraining",
      "  ✗ analyzeTraining 0.4 s metrics: no numeric column",
      "",
    ]);
  });
});
