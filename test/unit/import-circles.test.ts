import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/** Folders that are not the service's or the client's sources: their import graph may lean on the sources freely. */
const NOT_SOURCES = new Set(["test", "bench", "scripts", "node_modules", "dist", "docs"]);

/** The top-level folders of the sources. */
function sourceFolders(): string[] {
  return readdirSync(".", { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith(".") && !NOT_SOURCES.has(d.name))
    .map((d) => d.name);
}

describe("the import graph of the sources", () => {
  it("has no circle (madge --circular)", async () => {
    const folders = sourceFolders();
    expect(folders).toEqual(expect.arrayContaining(["artifacts", "client", "graph", "llm", "nodes", "server", "workers"]));
    // madge's TypeScript reader needs TypeScript 5's API: the preload lends it the typescript-5 alias.
    const args = ["--require", "./test/support/typescript-5-api.cjs", "node_modules/madge/bin/cli.js", "--circular", "--json"];
    args.push("--extensions", "ts,mts,js,mjs", "--ts-config", "tsconfig.json", ...folders);
    // madge exits with 1 when it finds a circle: its JSON is on stdout either way.
    const stdout = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }).then(
      (done) => done.stdout,
      (failed: { stdout?: string }) => failed.stdout ?? "",
    );
    const circles = JSON.parse(stdout) as string[][];
    expect(circles.map((c) => c.join(" → "))).toEqual([]);
  }, 180_000);
});
