import type { ParseArgsConfig } from "node:util";
import { SEVERITIES, type Severity } from "../../graph/result.js";
import { ClientError } from "../errors.js";
import { DEFAULT_SERVER, oneOf, parseCommandArgs, seconds } from "./options.js";

/** Flags of `ml-diagnose watch`; every one has a long form and a line in its help. */
export const WATCH_OPTIONS = {
  server: { type: "string" },
  interval: { type: "string" },
  idle: { type: "string" },
  "stop-on": { type: "string" },
  "signal-pid": { type: "string" },
  "on-finding": { type: "string" },
  "dataset-name": { type: "string" },
  retries: { type: "string" },
  "max-wait": { type: "string" },
  timeout: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/** `ml-diagnose watch` as the flags ask for it, checked. */
export interface WatchOptions {
  folder: string;
  server: string;
  /** At most one analysis per interval while points arrive. */
  intervalMs: number;
  /** The run has ended when its files have not grown for this long. */
  idleMs: number;
  /** How often the files are looked at: often enough to re-analyse on time, at most once a second. */
  pollMs: number;
  stopOn: Severity | null;
  signalPid: number | null;
  onFinding: string | null;
  datasetName: string | null;
  retries: number;
  maxWaitMs: number;
  timeoutMs: number;
  quiet: boolean;
  noColor: boolean;
  help: boolean;
}

/** Reads and checks the flags of `watch`; `env` supplies ML_DIAGNOSE_SERVER. */
export function readWatchOptions(args: string[], env: Record<string, string | undefined>): WatchOptions {
  const { values: v, positionals } = parseCommandArgs(args, WATCH_OPTIONS, "watch");
  const intervalMs = seconds("interval", v.interval, 30, 0) * 1000;
  const pid = v["signal-pid"] === undefined ? null : Number(v["signal-pid"]);
  const options: WatchOptions = {
    folder: positionals[0] ?? "",
    server: (v.server ?? env.ML_DIAGNOSE_SERVER ?? DEFAULT_SERVER).replace(/\/+$/, ""),
    intervalMs,
    idleMs: seconds("idle", v.idle, 600, 1) * 1000,
    pollMs: Math.max(100, Math.min(1000, intervalMs)),
    stopOn: oneOf("stop-on", v["stop-on"], SEVERITIES),
    signalPid: pid,
    onFinding: v["on-finding"] ?? null,
    datasetName: v["dataset-name"] ?? null,
    retries: Math.floor(seconds("retries", v.retries, 4, 0)),
    maxWaitMs: seconds("max-wait", v["max-wait"], 120, 0) * 1000,
    timeoutMs: seconds("timeout", v.timeout, 330, 1) * 1000,
    quiet: v.quiet ?? false,
    noColor: v["no-color"] ?? false,
    help: v.help ?? false,
  };
  if (options.help) return options;
  if (positionals.length !== 1) throw new ClientError("USAGE", "give exactly one run folder to watch (see `ml-diagnose watch --help`)");
  if (!/^https?:\/\/[^/]+/.test(options.server)) throw new ClientError("USAGE", `--server must be an http(s) URL such as ${DEFAULT_SERVER}, got '${options.server}'`);
  if (pid !== null && !(Number.isInteger(pid) && pid > 0)) throw new ClientError("USAGE", `--signal-pid takes a process id, got '${v["signal-pid"]}'`);
  if (pid !== null && !options.stopOn) throw new ClientError("USAGE", "--signal-pid goes with --stop-on <severity>: it says when to interrupt the training");
  return options;
}
