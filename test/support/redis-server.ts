import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./mlflow-server.js";

/** The binary scripts/setup-redis.sh found or installed: REDIS_SERVER_PATH, else redis-server on PATH. */
export const REDIS_SERVER = process.env.REDIS_SERVER_PATH || "redis-server";

export interface RedisServer {
  url: string;
  port: number;
  /** kill -9: the connection drops as when the machine running Redis dies. */
  kill(): Promise<void>;
  /** Stops the server (if running) and removes its temp dir. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Starts a redis-server of its own on a free loopback port, in a temp dir, with no persistence (no RDB
 * snapshots, no append-only file), and resolves once it accepts connections.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), "redis-test-"));
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--protected-mode", "yes"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join("").includes("Ready to accept connections")) resolve();
    });
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.once("error", (err) => reject(new Error(`${REDIS_SERVER} did not start (${err.message}); run scripts/setup-redis.sh`)));
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}: ${output.join("").slice(-2000)}`)));
  });
  const kill = async () => {
    child.kill("SIGKILL");
    await exited(child);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    stop: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
