// Prints a LangGraph API run body for the analysis graph: the sample request named on the command line,
// decoded into the graph's input ({ context }) exactly as POST /v1/analyse decodes it.
import { readFileSync } from "node:fs";
import { decodeAnalysisRequest } from "../artifacts/request.js";
import { parseTolerantJson } from "../artifacts/tolerant-json.js";

const [file, assistantId = "analysis"] = process.argv.slice(2);
if (!file) throw new Error("usage: tsx scripts/langgraph-cli-input.ts <request.json> [assistant_id]");
const context = decodeAnalysisRequest(parseTolerantJson(readFileSync(file, "utf8")), "langgraph-cli");
process.stdout.write(JSON.stringify({ assistant_id: assistantId, input: { context } }));
