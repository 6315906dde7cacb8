import type { RunEvent } from "../transport/attempt.js";
import type { Palette } from "../render/colour.js";
import type { OutStream } from "./io.js";

const seconds = (ms: unknown) => (typeof ms === "number" ? `${(ms / 1000).toFixed(1)} s` : "");

/** One stderr line per node start and end from the service's event stream (docs/debugging.md). */
function progressLine(e: RunEvent, p: Palette): string | null {
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

type NodeState = { mark: "▸" | "✓" | "✗"; findings: number | null };

/**
 * The run's progress on stderr. On a terminal, one line redrawn in place with every node so far (▸ running,
 * ✓ done with its findings, ✗ failed) and cleared at the end; a failure also stays as a line of its own.
 * Elsewhere (`--progress` into a file or a pipe), one line per event.
 */
export function progressView(stream: OutStream, p: Palette): { onEvent: (e: RunEvent) => void; done: () => void } {
  if (!stream.isTTY) {
    return {
      onEvent: (e) => {
        const line = progressLine(e, p);
        if (line) stream.write(`${line}\n`);
      },
      done: () => {},
    };
  }
  const nodes = new Map<string, NodeState>();
  let drawn = false;
  const clear = () => {
    if (drawn) stream.write("\r\u001b[2K");
    drawn = false;
  };
  const draw = () => {
    const parts = [...nodes].map(([node, s]) => `${s.mark === "✓" ? p.green(s.mark) : s.mark === "✗" ? p.red(s.mark) : s.mark} ${node}${s.findings ? ` ${s.findings}` : ""}`);
    stream.write(`\r\u001b[2K${p.dim("  analysing:")} ${parts.join("  ")}`);
    drawn = true;
  };
  return {
    onEvent: (e) => {
      const node = String(e.data.node ?? "");
      if (e.event === "node_started") nodes.set(node, { mark: "▸", findings: null });
      else if (e.event === "node_finished") {
        const failed = e.data.outcome !== "ok" || Boolean(e.data.error);
        nodes.set(node, { mark: failed ? "✗" : "✓", findings: typeof e.data.findings === "number" ? e.data.findings : null });
        if (failed) {
          clear();
          stream.write(`${progressLine(e, p)}\n`);
        }
      } else return;
      draw();
    },
    done: clear,
  };
}
