import type { Clock } from "../transport/retry.js";

/** A stream the command writes to; `isTTY` decides colour and live progress. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Everything the command touches outside the file system and the network, so tests can run it in-process. */
export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  clock?: Clock;
  random?: () => number;
}
