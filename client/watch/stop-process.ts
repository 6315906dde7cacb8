import { readFileSync } from "node:fs";
import { type Clock, systemClock } from "../transport/retry.js";

/** SIGINT's number: bit (2 − 1) of the SigIgn mask in /proc/<pid>/status. */
const SIGINT_BIT = 1n << 1n;
/** How often a signalled process is looked at while it has time to stop. */
const POLL_MS = 100;

function procStatus(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
}

/**
 * Whether the process ignores SIGINT, from its signal masks (Linux, proc(5): SigIgn is a hex bit mask, signal n at
 * bit n − 1); null where /proc does not say. A background job of a non-interactive shell (`python train.py &` in a
 * CI script, under nohup) starts with SIGINT ignored (POSIX, Shell Command Language §2.11), and Python keeps it so.
 */
export function ignoresSigint(pid: number): boolean | null {
  const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(procStatus(pid) ?? "")?.[1];
  return mask === undefined ? null : (BigInt(`0x${mask}`) & SIGINT_BIT) !== 0n;
}

/** Whether the process still runs: it exists and is not a zombie waiting for its parent to read its exit status. */
export function stillRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it exists, under another user.
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return !/^State:\s*Z/m.test(procStatus(pid) ?? "");
}

/** Waits until the process ends or `ms` pass; whether it ended. Real time: the process is real. */
async function endsWithin(pid: number, ms: number, clock: Clock): Promise<boolean> {
  const until = clock.now() + ms;
  while (stillRuns(pid)) {
    if (clock.now() >= until) return false;
    await clock.sleep(POLL_MS);
  }
  return true;
}

function send(pid: number, signal: NodeJS.Signals): string | null {
  try {
    process.kill(pid, signal);
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
}

/**
 * Stops the training process, saying each step through `say`: SIGINT first (Lightning and the Trainer stop
 * gracefully and save), SIGTERM when it is still running after `graceMs` or ignores SIGINT from the start, and
 * whether it ended. Returns whether it did.
 */
export async function stopProcess(pid: number, graceMs: number, say: (line: string) => void, clock: Clock = systemClock): Promise<boolean> {
  const grace = `${graceMs / 1000} s`;
  if (ignoresSigint(pid)) {
    say(`process ${pid} ignores SIGINT (a background job of a non-interactive shell does): sending SIGTERM`);
  } else {
    const failed = send(pid, "SIGINT");
    if (failed) {
      say(`could not signal process ${pid}: ${failed}`);
      return false;
    }
    say(`sent SIGINT to process ${pid}; waiting up to ${grace} (--signal-grace) for it to stop`);
    if (await endsWithin(pid, graceMs, clock)) {
      say(`process ${pid} stopped`);
      return true;
    }
    say(`process ${pid} still runs ${grace} after SIGINT: sending SIGTERM`);
  }
  const failed = send(pid, "SIGTERM");
  if (failed) {
    say(`could not signal process ${pid}: ${failed}`);
    return false;
  }
  const ended = await endsWithin(pid, graceMs, clock);
  say(ended ? `process ${pid} ended after SIGTERM` : `process ${pid} still runs ${grace} after SIGTERM; stop it with kill -KILL ${pid}`);
  return ended;
}
