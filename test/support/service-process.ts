import { spawn } from "node:child_process";
import { builtServer } from "./built.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Starts the service from the run's production build as `npm start` does, on a free port, and resolves with its URL and log lines. */
export async function startProcess(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--enable-source-maps", builtServer()], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let buffer = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        // Only our JSON log lines matter; anything else (a tool's notice) is kept for the failure message.
        const match = /"msg":"listening".*"port":(\d+)/.exec(line);
        if (match) resolve(Number(match[1]));
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${lines.join("\n")}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, port, lines };
}
