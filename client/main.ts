import { readFileSync } from "node:fs";
import { runAnalyse } from "./cli/analyse.js";
import { runCompare } from "./cli/compare.js";
import { COMPARE_HELP, readCompareOptions } from "./cli/compare-options.js";
import { ANALYSE_HELP, MAIN_HELP } from "./cli/help.js";
import type { Io } from "./cli/io.js";
import { readAnalyseOptions } from "./cli/options.js";
import { closest } from "./cli/suggest.js";
import { WATCH_HELP } from "./cli/watch-help.js";
import { readWatchOptions } from "./cli/watch-options.js";
import { runWatch } from "./watch/run-watch.js";
import { ClientError, isClientError } from "./errors.js";
import { EXIT, type ExitCode } from "./exit-codes.js";

const COMMANDS = ["analyse", "compare", "watch"] as const;

/** The package's version, from the package.json one folder up: the checkout's, or the copy the build puts in dist/. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return `${pkg.version}\n`;
}

async function dispatch(argv: string[], io: Io): Promise<ExitCode> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    (command === undefined ? io.stderr : io.stdout).write(MAIN_HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === "--version") {
    io.stdout.write(version());
    return EXIT.ok;
  }
  // `analyze` is the American spelling the service accepts too (/v1/analyze).
  if (command === "analyse" || command === "analyze") {
    const options = readAnalyseOptions(rest, io.env);
    if (options.help) {
      io.stdout.write(ANALYSE_HELP);
      return EXIT.ok;
    }
    return runAnalyse(options, io);
  }
  if (command === "compare") {
    const options = readCompareOptions(rest, io.env);
    if (options.help) {
      io.stdout.write(COMPARE_HELP);
      return EXIT.ok;
    }
    return runCompare(options, io);
  }
  if (command === "watch") {
    const options = readWatchOptions(rest, io.env);
    if (options.help) {
      io.stdout.write(WATCH_HELP);
      return EXIT.ok;
    }
    return runWatch(options, io);
  }
  const guess = closest(command, COMMANDS);
  io.stderr.write(`ml-diagnose: unknown command '${command}'${guess ? `; did you mean '${guess}'?` : ""} (see ml-diagnose --help)\n`);
  return EXIT.usage;
}

/**
 * A failure nobody anticipated, as one line with a documented code instead of Node's stack and exit 1 (which CI
 * reads as "gate failed"): a file-system error is an input problem (2), anything else a bug (5).
 */
function unforeseen(err: unknown, env: Io["env"]): ClientError {
  const e: NodeJS.ErrnoException = err instanceof Error ? err : new Error(String(err));
  if (typeof e.code === "string" && typeof e.syscall === "string") return new ClientError("INPUT", `${e.path ?? e.syscall}: ${e.code} (${e.message})`);
  const stack = env.ML_DIAGNOSE_DEBUG ? `\n${e.stack}` : " (ML_DIAGNOSE_DEBUG=1 prints the stack; please report it)";
  return new ClientError("INTERNAL", `internal error: ${e.name}: ${e.message}${stack}`);
}

/** Runs the command line and returns its exit code; every failure prints one message and ends with its code. */
export async function main(argv: string[], io: Io): Promise<ExitCode> {
  try {
    return await dispatch(argv, io);
  } catch (caught) {
    const err = isClientError(caught) ? caught : unforeseen(caught, io.env);
    io.stderr.write(`ml-diagnose: ${err.message}\n`);
    return err.exitCode;
  }
}
