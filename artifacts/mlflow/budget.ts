import { MlflowError } from "./errors.js";

/** A bound on one file and the variable that sets it (named in the error). */
export interface FileCap {
  bytes: number;
  variable: string;
}

/** Bytes one request may pull: a per-request total plus a per-file bound, both checked while bytes arrive. */
export class ByteBudget {
  private used = 0;
  constructor(
    readonly maxTotal: number,
    /** Files stored in the workspace (checkpoints). */
    readonly fileCap: FileCap,
    /** Documents read into memory (reports, CSVs, API answers): no larger than an inline request may be. */
    readonly documentCap: FileCap,
  ) {}

  get total(): number {
    return this.used;
  }

  /** Fails before a download starts when the listed size alone is over a cap. */
  admit(size: number | undefined, what: string, cap: FileCap): void {
    if (size === undefined) return;
    if (size > cap.bytes) throw tooLarge(what, size, cap.bytes, "per-file", cap.variable);
    if (this.used + size > this.maxTotal) throw tooLarge(what, this.used + size, this.maxTotal, "per-request", "SERVICE_MAX_DOWNLOAD_BYTES");
  }

  /** Counts `n` more bytes of `what`, which had received `sofar` bytes before them. */
  take(n: number, sofar: number, what: string, cap: FileCap): void {
    if (sofar + n > cap.bytes) throw tooLarge(what, sofar + n, cap.bytes, "per-file", cap.variable);
    if (this.used + n > this.maxTotal) throw tooLarge(what, this.used + n, this.maxTotal, "per-request", "SERVICE_MAX_DOWNLOAD_BYTES");
    this.used += n;
  }
}

function tooLarge(what: string, bytes: number, cap: number, kind: string, variable: string): MlflowError {
  return new MlflowError(
    "DOWNLOAD_TOO_LARGE",
    `${what}: pulling it would reach ${formatBytes(bytes)}, over the ${kind} download cap of ${formatBytes(cap)} (${variable}); ` +
      "narrow the reference with runs:/<run_id>/<path>, send the artifact inline, or raise the cap",
  );
}

/** 1536 → "1.5 KiB". */
export function formatBytes(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[i]}`;
}
