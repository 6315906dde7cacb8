import { parseArgs, type ParseArgsConfig } from "node:util";
import { SEVERITIES, type Severity } from "../../domain/result.js";
import { ClientError } from "../errors.js";
import { closest } from "./suggest.js";

export const FORMATS = ["text", "json", "markdown", "html"] as const;
export type Format = (typeof FORMATS)[number];
export const DEFAULT_SERVER = "http://127.0.0.1:8844";

/** Flags of every command that talks to the service: where it is, how long to retry, how to print. */
export const CONNECTION_OPTIONS = {
  server: { type: "string" },
  retries: { type: "string" },
  "max-wait": { type: "string" },
  timeout: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/** The connection flags as read, shared by analyse, compare and watch. */
export interface ConnectionOptions {
  server: string;
  retries: number;
  maxWaitMs: number;
  timeoutMs: number;
  quiet: boolean;
  noColor: boolean;
  help: boolean;
}

interface ConnectionValues {
  server?: string;
  retries?: string;
  "max-wait"?: string;
  timeout?: string;
  quiet?: boolean;
  "no-color"?: boolean;
  help?: boolean;
}

/** Reads the connection flags; `env` supplies ML_DIAGNOSE_SERVER when --server is not given. */
export function readConnection(v: ConnectionValues, env: Record<string, string | undefined>): ConnectionOptions {
  return {
    server: (v.server ?? env.ML_DIAGNOSE_SERVER ?? DEFAULT_SERVER).replace(/\/+$/, ""),
    retries: Math.floor(seconds("retries", v.retries, 4, 0)),
    maxWaitMs: seconds("max-wait", v["max-wait"], 120, 0) * 1000,
    timeoutMs: seconds("timeout", v.timeout, 330, 1) * 1000,
    quiet: v.quiet ?? false,
    noColor: v["no-color"] ?? false,
    help: v.help ?? false,
  };
}

/** Refuses a service address that is not an http(s) URL (checked after --help, which needs none). */
export function checkServer(server: string): void {
  if (!/^https?:\/\/[^/]+/.test(server)) throw new ClientError("USAGE", `--server must be an http(s) URL such as ${DEFAULT_SERVER}, got '${server}'`);
}

/** Flags of `ml-diagnose analyse`; every one has a long form and a line in its help. */
export const ANALYSE_OPTIONS = {
  ...CONNECTION_OPTIONS,
  format: { type: "string", short: "f" },
  output: { type: "string", short: "o" },
  "fail-on": { type: "string" },
  strict: { type: "boolean" },
  "dry-run": { type: "boolean" },
  "server-paths": { type: "boolean" },
  "mlflow-run": { type: "string" },
  run: { type: "string" },
  data: { type: "string" },
  test: { type: "string" },
  target: { type: "string" },
  "record-to-mlflow": { type: "string" },
  "dataset-name": { type: "string" },
  "model-name": { type: "string" },
  language: { type: "string" },
  progress: { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

/** `ml-diagnose analyse` as the flags ask for it, checked. */
export interface AnalyseOptions extends ConnectionOptions {
  paths: string[];
  format: Format;
  output: string | null;
  failOn: Severity | null;
  strict: boolean;
  dryRun: boolean;
  serverPaths: boolean;
  mlflowRun: string | null;
  /** `--run <id|name>`: the run to send from a local store holding several (MLflow SQLite, W&B run folders). */
  run: string | null;
  /** `--data`, `--test`, `--target`: compute the dataset statistics here from data files (client/dataset). */
  data: string | null;
  test: string | null;
  target: string | null;
  /** `--record-to-mlflow <run id>`: log the request and diagnosis into that run (MLFLOW_TRACKING_URI). */
  recordToMlflow: string | null;
  datasetName: string | null;
  modelName: string | null;
  language: string | null;
  /** null: on when stderr is a terminal. */
  progress: boolean | null;
}

/** parseArgs with a "did you mean" for a mistyped flag, and every problem as a USAGE error. */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O, command: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = (err as Error).message;
    const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
    const guess = flag?.startsWith("--") ? closest(flag.slice(2), Object.keys(options)) : null;
    throw new ClientError("USAGE", `${message.split(". ")[0]}${guess ? `; did you mean --${guess}?` : ""} (see \`ml-diagnose ${command} --help\`)`);
  }
}

export function seconds(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new ClientError("USAGE", `--${flag} takes a number ≥ ${min}, got '${value}'`);
  return n;
}

export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | null {
  if (value === undefined) return null;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ClientError("USAGE", `--${flag} takes one of ${allowed.join(", ")}, got '${value}'`);
}

/** Reads and checks the flags of `analyse`; `env` supplies ML_DIAGNOSE_SERVER. */
export function readAnalyseOptions(args: string[], env: Record<string, string | undefined>): AnalyseOptions {
  const { values: v, positionals } = parseCommandArgs(args, ANALYSE_OPTIONS, "analyse");
  const format = oneOf("format", v.format, FORMATS) ?? "text";
  const failOn = oneOf("fail-on", v["fail-on"], SEVERITIES);
  const options: AnalyseOptions = {
    ...readConnection(v, env),
    paths: positionals,
    format,
    output: v.output ?? null,
    failOn,
    strict: v.strict ?? false,
    dryRun: v["dry-run"] ?? false,
    serverPaths: v["server-paths"] ?? false,
    mlflowRun: v["mlflow-run"] ?? null,
    run: v.run ?? null,
    data: v.data ?? null,
    test: v.test ?? null,
    target: v.target ?? null,
    recordToMlflow: v["record-to-mlflow"] ?? null,
    datasetName: v["dataset-name"] ?? null,
    modelName: v["model-name"] ?? null,
    language: v.language ?? null,
    progress: v.progress ?? null,
  };
  if (options.help) return options;
  checkServer(options.server);
  if (options.paths.length === 0 && !options.mlflowRun && !options.data) {
    throw new ClientError("USAGE", "give at least one run folder or file, --data <file> or --mlflow-run <id> (see `ml-diagnose analyse --help`)");
  }
  if (!options.data && (options.test || options.target)) {
    throw new ClientError("USAGE", `--${options.test ? "test" : "target"} goes with --data <train file>`);
  }
  if (format === "html" && options.recordToMlflow) {
    throw new ClientError("USAGE", "--record-to-mlflow records the HTML report in the run itself; print --format text, markdown or json here");
  }
  if (format === "html" && failOn) {
    throw new ClientError("USAGE", "--fail-on needs the findings, which --format html does not return: run once with --format markdown or json for the gate");
  }
  return options;
}
