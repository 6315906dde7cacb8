import type { RunEvent } from "../transport/attempt.js";
import type { Palette } from "../render/colour.js";

const seconds = (ms: unknown) => (typeof ms === "number" ? `${(ms / 1000).toFixed(1)} s` : "");

/** One stderr line per node start and end from the service's event stream (docs/debugging.md). */
export function progressLine(e: RunEvent, p: Palette): string | null {
  const node = String(e.data.node ?? "");
  switch (e.event) {
    case "run_started":
      return p.dim(`… analysing ${Array.isArray(e.data.artifacts) ? e.data.artifacts.join(", ") : ""}`);
    case "node_started":
      return p.dim(`  ▸ ${node}`);
    case "node_finished": {
      if (e.data.outcome !== "ok" || e.data.error) return `  ${p.red("✗")} ${node} ${p.dim(seconds(e.data.duration_ms))} ${String(e.data.error ?? e.data.outcome)}`;
      const n = e.data.findings;
      return `  ${p.green("✓")} ${node}${typeof n === "number" ? ` ${n} finding${n === 1 ? "" : "s"}` : ""} ${p.dim(seconds(e.data.duration_ms))}`;
    }
    case "progress":
      return p.dim(`    ${node ? `${node}: ` : ""}${String(e.data.message ?? "")}`);
    default:
      return null;
  }
}
