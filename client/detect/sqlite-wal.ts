/**
 * Folds a SQLite write-ahead log into a copy of its database's bytes, as SQLite itself would on reading
 * (sqlite.org/fileformat.html, "The WAL File Format"): frames whose salts match the WAL header and whose running
 * checksum holds, up to the last commit frame, replace their pages; the database takes the commit's size. Frames
 * after the last commit (a transaction still being written) are not applied. The user's files are never written:
 * this works on bytes already read.
 */
export interface WalResult {
  bytes: Uint8Array;
  /** Committed frames applied. */
  frames: number;
  /** Frames left out: uncommitted, from an older checkpoint generation, or after a checksum break. */
  ignored: number;
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

export function applyWal(db: Uint8Array, wal: Uint8Array): WalResult {
  const noChange = { bytes: db, frames: 0, ignored: 0 };
  if (wal.length < WAL_HEADER) return noChange;
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return noChange;
  const bigEndian = magic === 0x377f0683;
  const pageSize = view.getUint32(8) === 1 ? 65536 : view.getUint32(8);
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);
  let [s0, s1] = checksum(view, 0, 24, 0, 0, bigEndian);
  if (s0 !== view.getUint32(24) || s1 !== view.getUint32(28)) return noChange;

  const committed = new Map<number, number>();
  const pending = new Map<number, number>();
  let size = 0;
  let frames = 0;
  let total = 0;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    total++;
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
    [s0, s1] = checksum(view, at, 8, s0, s1, bigEndian);
    [s0, s1] = checksum(view, at + FRAME_HEADER, pageSize, s0, s1, bigEndian);
    if (s0 !== view.getUint32(at + 16) || s1 !== view.getUint32(at + 20)) break;
    pending.set(view.getUint32(at), at + FRAME_HEADER);
    const commitSize = view.getUint32(at + 4);
    if (commitSize > 0) {
      for (const [page, offset] of pending) committed.set(page, offset);
      frames += pending.size;
      pending.clear();
      size = commitSize;
    }
  }
  if (size === 0) return { ...noChange, ignored: total };
  const out = new Uint8Array(size * pageSize);
  out.set(db.subarray(0, Math.min(db.length, out.length)));
  for (const [page, offset] of committed) if (page <= size) out.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize);
  return { bytes: out, frames, ignored: total - frames };
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8), continuing from s0, s1. */
function checksum(view: DataView, from: number, length: number, s0: number, s1: number, bigEndian: boolean): [number, number] {
  for (let i = from; i < from + length; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}
