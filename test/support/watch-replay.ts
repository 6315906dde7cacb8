import { main } from "../../client/main.js";
import type { Clock } from "../../client/transport/retry.js";

/** A change to the watched folder, made between two polls of the watcher. */
export type Write = () => Promise<void>;

export interface WatchTrace {
  code: number;
  stdout: string;
  stderr: string;
  /** For analysis k (0-based), how many writes had been made when it ran. */
  analysesAt: number[];
  /** Each finding line printed, with the 1-based number of the analysis that printed it. */
  printed: Array<{ analysis: number; line: string }>;
}

/**
 * Runs the real `ml-diagnose watch` in-process on a virtual clock: each of the watcher's sleeps between polls
 * advances the clock by what it asked for and makes the next write, so a run grows at a controlled pace with no
 * wall-clock timing. After the last write the clock keeps advancing until the watch ends by itself (--idle).
 */
export async function replayWatch(args: string[], writes: readonly Write[]): Promise<WatchTrace> {
  let now = Date.UTC(2026, 0, 1);
  let done = 0;
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      if (done < writes.length) await writes[done++]!();
    },
  };
  const trace: WatchTrace = { code: -1, stdout: "", stderr: "", analysesAt: [], printed: [] };
  trace.code = await main(["watch", ...args], {
    stdout: {
      write: (text: string) => {
        trace.stdout += text;
        const head = text.split("\n")[0]!;
        trace.printed.push({ analysis: trace.analysesAt.length, line: head });
      },
    },
    stderr: {
      write: (text: string) => {
        trace.stderr += text;
        if (/^analysis \d+/.test(text)) trace.analysesAt.push(done);
      },
    },
    env: {},
    clock,
    random: () => 0,
  });
  return trace;
}
