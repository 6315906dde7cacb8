// The README's `ml-diagnose` examples, rendered from what the commands print: each example is a ```sh block
// between `<!-- readme-example -->` and `<!-- /readme-example -->` whose first line is the command; the lines after
// it are the command's output as comments. scripts/readme-examples.ts rewrites them, and
// test/client/readme-examples.test.ts fails when the README no longer matches what the commands print.
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { main } from "../../client/main.js";

const OPEN = "<!-- readme-example -->";
const CLOSE = "<!-- /readme-example -->";
const BLOCK = new RegExp(`${OPEN}\\n\`\`\`sh\\n(npx ml-diagnose [^\\n]+)\\n[\\s\\S]*?\`\`\`\\n${CLOSE}`, "g");

/** What a command printed. */
export interface Printed {
  stdout: string;
  stderr: string;
}

/** Runs `ml-diagnose <args>` in this process as the command line does, against `server`, without colour. */
export async function runExample(args: string[], server: string): Promise<Printed> {
  const out = { stdout: "", stderr: "" };
  const stream = (key: keyof Printed) => ({ write: (text: string) => (out[key] += text), isTTY: false });
  const code = await main(args, { stdout: stream("stdout"), stderr: stream("stderr"), env: { ML_DIAGNOSE_SERVER: server, NO_COLOR: "1" } });
  if (code !== 0) throw new Error(`ml-diagnose ${args.join(" ")} exited ${code}:\n${out.stderr}`);
  return out;
}

/** The folders the command's path arguments name, longest first: shown as `…/` so the example stays readable. */
function pathFolders(args: readonly string[]): string[] {
  const folders = args.flatMap((a) => {
    const info = statSync(a, { throwIfNoEntry: false });
    return info ? [info.isDirectory() ? a.replace(/\/+$/, "") : dirname(a)] : [];
  });
  return [...new Set(folders)].sort((a, b) => b.length - a.length);
}

/**
 * The lines an example shows: stderr's listing of what was read (without the files not sent), the headline, and
 * the findings section (each finding and its first evidence line); the summary and recommendations are left out.
 */
export function exampleLines(args: readonly string[], printed: Printed): string[] {
  const shorten = (line: string) => pathFolders(args).reduce((l, folder) => l.replaceAll(`${folder}/`, "…/"), line);
  const listing = printed.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("- "));
  const lines = printed.stdout.split("\n");
  const start = lines.indexOf("Findings");
  const end = start < 0 ? -1 : lines.indexOf("", start);
  const findings = start < 0 ? [] : lines.slice(start + 1, end < 0 ? undefined : end);
  return [...listing, lines[0] ?? "", ...findings].map(shorten);
}

/** The README with every example block rewritten from what `run` prints for its command. */
export async function renderExamples(readme: string, run: (args: string[]) => Promise<Printed>): Promise<string> {
  const blocks = [...readme.matchAll(BLOCK)];
  if (blocks.length === 0) throw new Error(`no example blocks (${OPEN} … ${CLOSE}) in the README`);
  let out = readme;
  for (const [whole, command] of blocks) {
    const args = command!.replace(/^npx ml-diagnose /, "").split(/\s+/);
    const lines = exampleLines(args, await run(args));
    out = out.replace(whole, [OPEN, "```sh", command, ...lines.map((l) => `# ${l}`.trimEnd()), "```", CLOSE].join("\n"));
  }
  return out;
}
