#!/usr/bin/env node
// Plain JavaScript so Node runs it as it is from a checkout and after `npm install -g`: it registers tsx's ESM
// loader (as workers/entry.mjs does) and runs the TypeScript entry. A compiled build can replace this later.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../main.ts");
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
