import type { Severity } from "../../domain/result.js";

/** ANSI styles, or nothing when colour is off (not a TTY, NO_COLOR, --no-color). */
export interface Palette {
  severity(s: Severity, text: string): string;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
}

const SGR: Record<Severity, string> = { critical: "1;31", high: "31", medium: "33", low: "36", info: "2" };
const wrap = (code: string, text: string) => `\u001b[${code}m${text}\u001b[0m`;

export function palette(enabled: boolean): Palette {
  if (!enabled) {
    const same = (text: string) => text;
    return { severity: (_s, text) => text, bold: same, dim: same, red: same, green: same };
  }
  return {
    severity: (s, text) => wrap(SGR[s], text),
    bold: (text) => wrap("1", text),
    dim: (text) => wrap("2", text),
    red: (text) => wrap("31", text),
    green: (text) => wrap("32", text),
  };
}

/**
 * Colour is for people at a terminal: on only when the stream is a TTY and neither NO_COLOR (no-color.org: any
 * non-empty value) nor --no-color says otherwise.
 */
export function colourWanted(isTty: boolean, env: Record<string, string | undefined>, noColorFlag: boolean): boolean {
  return isTty && !noColorFlag && !(env.NO_COLOR !== undefined && env.NO_COLOR !== "");
}
