import { open, stat } from "node:fs/promises";

/** What one poll of a growing file found. */
export type Growth = { kind: "none" } | { kind: "appended"; bytes: Buffer } | { kind: "rewritten"; bytes: Buffer };

/**
 * Reads only what was appended to a file since the last poll (its byte offset is kept), so a tick costs the new
 * bytes, not the file. A file that got shorter, or whose first bytes changed (Lightning's CSVLogger rewrites
 * metrics.csv with a wider header when a new metric appears), is read again whole, once.
 */
export class AppendReader {
  private offset = 0;
  private head: Buffer = Buffer.alloc(0);

  constructor(readonly path: string, private readonly headBytes = 256) {}

  async poll(): Promise<Growth> {
    const info = await stat(this.path).catch(() => null);
    if (!info) return { kind: "none" };
    if (info.size === this.offset) return { kind: "none" };
    const fh = await open(this.path, "r");
    try {
      let rewritten = info.size < this.offset;
      if (!rewritten && this.head.length > 0) {
        const now = Buffer.alloc(this.head.length);
        await fh.read(now, 0, now.length, 0);
        rewritten = !now.equals(this.head);
      }
      const from = rewritten ? 0 : this.offset;
      const bytes = Buffer.alloc(info.size - from);
      const { bytesRead } = await fh.read(bytes, 0, bytes.length, from);
      this.offset = from + bytesRead;
      if (this.head.length < this.headBytes || rewritten) {
        const head = Buffer.alloc(Math.min(this.headBytes, this.offset));
        await fh.read(head, 0, head.length, 0);
        this.head = head;
      }
      return { kind: rewritten ? "rewritten" : "appended", bytes: bytes.subarray(0, bytesRead) };
    } finally {
      await fh.close();
    }
  }
}

/**
 * Complete lines of a growing text file: a last line without its newline (a row the writer has not finished)
 * waits for the rest instead of being parsed half-written.
 */
export class LineFollower {
  private readonly reader: AppendReader;
  private partial = "";
  readonly lines: string[] = [];

  constructor(path: string) {
    this.reader = new AppendReader(path);
  }

  /** Lines completed since the last poll; `rewritten` when the file was replaced and `lines` restarted. */
  async poll(): Promise<{ added: number; rewritten: boolean }> {
    const g = await this.reader.poll();
    if (g.kind === "none") return { added: 0, rewritten: false };
    if (g.kind === "rewritten") {
      this.lines.length = 0;
      this.partial = "";
    }
    const text = this.partial + g.bytes.toString("utf8");
    const parts = text.split("\n");
    this.partial = parts.pop()!;
    const complete = parts.map((l) => l.replace(/\r$/, "")).filter((l) => l !== "");
    // One push per line: a spread of a million rows (a large log's first read) overflows the call stack.
    for (const l of complete) this.lines.push(l);
    return { added: complete.length, rewritten: g.kind === "rewritten" };
  }
}
