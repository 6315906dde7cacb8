import { stat } from "node:fs/promises";
import { readMlflowSqlite, type SqliteStoreRead } from "../detect/mlflow-sqlite.js";
import { WandbRunBuilder } from "../detect/wandb-run.js";
import { LevelDbLogReader } from "../../nodes/training/parse/leveldb-log.js";
import { decodeWandbRecord } from "../../nodes/training/parse/wandb-records.js";
import { AppendReader } from "./append-reader.js";


/** A run store being followed: what a poll added, whether the run ended, and what was read so far. */
export interface StoreFollower {
  poll(): Promise<{ added: number; ended: boolean }>;
  /** `training_artifacts.metrics` for what was read so far; null before any number arrived. */
  metrics(): unknown;
  params(): Record<string, unknown>;
}

/**
 * A growing W&B transaction log: each poll reads only the appended bytes and decodes the records they complete (a
 * record the writer has half-flushed waits for its rest). Ends at the run's exit record.
 */
export class WandbLogFollower implements StoreFollower {
  private readonly file: AppendReader;
  private log = new LevelDbLogReader();
  private run = new WandbRunBuilder();

  constructor(readonly path: string) {
    this.file = new AppendReader(path);
  }

  async poll(): Promise<{ added: number; ended: boolean }> {
    const g = await this.file.poll();
    if (g.kind === "rewritten") {
      this.log = new LevelDbLogReader();
      this.run = new WandbRunBuilder();
    }
    const before = this.run.history.rows;
    if (g.kind !== "none") for (const bytes of this.log.feed(g.bytes)) {
      const record = decodeWandbRecord(bytes);
      if (record) this.run.add(record);
    }
    return { added: this.run.history.rows - before, ended: this.run.exitCode !== null };
  }

  metrics(): unknown {
    return this.run.history.csv();
  }

  params(): Record<string, unknown> {
    return this.run.params;
  }
}

/**
 * An MLflow SQLite store: SQLite rewrites pages in place, so there is no appended tail to read; the store is read
 * again whole (with its -wal) when the db's or the WAL's size or time changed. Follows the run that was newest at
 * the first read (the one training), and ends when its status is FINISHED, FAILED or KILLED.
 */
export class SqliteStoreFollower implements StoreFollower {
  private seen = "";
  private runId: string | null = null;
  private points: SqliteStoreRead["metrics"] = [];
  private runParams: Record<string, unknown> = {};
  private ended = false;

  constructor(readonly path: string) {}

  async poll(): Promise<{ added: number; ended: boolean }> {
    const [db, wal] = await Promise.all([stat(this.path).catch(() => null), stat(`${this.path}-wal`).catch(() => null)]);
    const seen = `${db?.size}:${db?.mtimeMs}:${wal?.size}:${wal?.mtimeMs}`;
    if (!db || seen === this.seen) return { added: 0, ended: this.ended };
    // A store caught mid-write reads as it was at its last commit; one that cannot be read is tried at the next poll.
    const read = await readMlflowSqlite(this.path, this.runId, true).catch(() => null);
    if (!read?.run) return { added: 0, ended: this.ended };
    this.seen = seen;
    this.runId = read.run.runId;
    const added = Math.max(0, read.metrics.length - this.points.length);
    this.points = read.metrics;
    this.runParams = read.params;
    this.ended = read.run.status !== "RUNNING" && read.run.status !== "SCHEDULED";
    return { added, ended: this.ended };
  }

  metrics(): unknown {
    return this.points.length > 0 ? this.points : null;
  }

  params(): Record<string, unknown> {
    return this.runParams;
  }
}
