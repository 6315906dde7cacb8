import type { Used } from "../detect/detect-run.js";
import type { Skipped } from "../detect/locate.js";
import type { Palette } from "../render/colour.js";

/** The "which file went where" listing on stderr: used files, then skipped ones with the reason. */
export function describeSources(used: readonly Used[], skipped: readonly Skipped[], p: Palette, quiet: boolean): string {
  const lines: string[] = [];
  if (!quiet) for (const u of used) lines.push(`${p.green("+")} ${u.source} → ${u.target} ${p.dim(`(${u.label})`)}`);
  for (const s of skipped) {
    if (s.problem) lines.push(`${p.red("!")} ${s.source}: skipped: ${s.reason}`);
    else if (!quiet) lines.push(`${p.dim("-")} ${s.source}: ${p.dim(`not sent: ${s.reason}`)}`);
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
