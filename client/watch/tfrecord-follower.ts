import { AppendReader } from "./append-reader.js";

/** TFRecord framing: u64 length, u32 masked CRC of the length, the record, u32 masked CRC of the record. */
const FRAME = 8 + 4 + 4;

/**
 * The complete records of a growing TensorBoard event file: appended bytes are split into whole TFRecords, and a
 * record the writer has only partly flushed waits for its remaining bytes (never a false parse error). The
 * service's own reader checks the CRCs.
 */
export class TfRecordFollower {
  private readonly reader: AppendReader;
  private pending = Buffer.alloc(0);
  private readonly records: Buffer[] = [];
  private joined: Buffer | null = null;
  count = 0;

  constructor(readonly path: string) {
    this.reader = new AppendReader(path);
  }

  /** Records completed since the last poll. */
  async poll(): Promise<number> {
    const g = await this.reader.poll();
    if (g.kind === "none") return 0;
    if (g.kind === "rewritten") {
      this.records.length = 0;
      this.pending = Buffer.alloc(0);
      this.count = 0;
    }
    let buf = this.pending.length > 0 ? Buffer.concat([this.pending, g.bytes]) : g.bytes;
    let added = 0;
    while (buf.length >= 8) {
      const length = Number(buf.readBigUInt64LE(0));
      if (buf.length < length + FRAME) break;
      this.records.push(Buffer.from(buf.subarray(0, length + FRAME)));
      buf = buf.subarray(length + FRAME);
      added++;
    }
    this.pending = Buffer.from(buf);
    this.count += added;
    if (added > 0) this.joined = null;
    return added;
  }

  /** The file's complete records, as the bytes of an event file. */
  content(): Buffer {
    this.joined ??= Buffer.concat(this.records);
    return this.joined;
  }
}
