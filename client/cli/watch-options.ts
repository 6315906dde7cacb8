import type { ParseArgsConfig } from "node:util";
import { SEVERITIES, type Severity } from "../../domain/result.js";
import { ClientError } from "../errors.js";
import { checkServer, CONNECTION_OPTIONS, type ConnectionOptions, oneOf, parseCommandArgs, readConnection, seconds } from "./options.js";

/** Flags of `ml-diagnose watch`; every one has a long form and a line in its help. */
export const WATCH_OPTIONS = {
  ...CONNECTION_OPTIONS,
  interval: { type: "string" },
  idle: { type: "string" },
  "stop-on": { type: "string" },
  "signal-pid": { type: "string" },
  "signal-grace": { type: "string" },
  "on-finding": { type: "string" },
  "dataset-name": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

/** `ml-diagnose watch` as the flags ask for it, checked. */
export interface WatchOptions extends ConnectionOptions {
  folder: string;
  /** At most one analysis per interval while points arrive. */
  intervalMs: number;
  /** The run has ended when its files have not grown for this long. */
  idleMs: number;
  /** How often the files are looked at: often enough to re-analyse on time, at most once a second. */
  pollMs: number;
  stopOn: Severity | null;
  signalPid: number | null;
  /** How long the training has to stop after SIGINT before SIGTERM, and after SIGTERM before it is reported running. */
  signalGraceMs: number;
  onFinding: string | null;
  datasetName: string | null;
}

/** Reads and checks the flags of `watch`; `env` supplies ML_DIAGNOSE_SERVER. */
export function readWatchOptions(args: string[], env: Record<string, string | undefined>): WatchOptions {
  const { values: v, positionals } = parseCommandArgs(args, WATCH_OPTIONS, "watch");
  const intervalMs = seconds("interval", v.interval, 30, 0) * 1000;
  const pid = v["signal-pid"] === undefined ? null : Number(v["signal-pid"]);
  const options: WatchOptions = {
    ...readConnection(v, env),
    folder: positionals[0] ?? "",
    intervalMs,
    idleMs: seconds("idle", v.idle, 600, 1) * 1000,
    pollMs: Math.max(100, Math.min(1000, intervalMs)),
    stopOn: oneOf("stop-on", v["stop-on"], SEVERITIES),
    signalPid: pid,
    signalGraceMs: seconds("signal-grace", v["signal-grace"], 30, 0) * 1000,
    onFinding: v["on-finding"] ?? null,
    datasetName: v["dataset-name"] ?? null,
  };
  if (options.help) return options;
  if (positionals.length !== 1) throw new ClientError("USAGE", "give exactly one run folder to watch (see `ml-diagnose watch --help`)");
  checkServer(options.server);
  if (pid !== null && !(Number.isInteger(pid) && pid > 0)) throw new ClientError("USAGE", `--signal-pid takes a process id, got '${v["signal-pid"]}'`);
  if (pid !== null && !options.stopOn) throw new ClientError("USAGE", "--signal-pid goes with --stop-on <severity>: it says when to interrupt the training");
  return options;
}
