#!/usr/bin/env bash
# Checks that LangGraph's own CLI serves and runs our graph (langgraph.json → graph/langgraph-entry.ts):
# installs @langchain/langgraph-cli into .cache/langgraph-cli (not a devDependency: ~200 packages and a peer
# warning), starts `langgraphjs dev` on a free loopback port with analytics off, runs the full sample through
# POST /runs/wait, checks every agent answered and the graph lists its seven nodes, then stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI_VERSION=2.0.0
CLI_DIR=.cache/langgraph-cli
SAMPLE=${1:-test/fixtures/samples/full-image-classification.json}
export LANGGRAPH_CLI_NO_ANALYTICS=1 # the CLI otherwise posts OS, Node version and flags to a remote service

if [ "$(cat "$CLI_DIR/.installed" 2>/dev/null)" != "$CLI_VERSION" ]; then
  echo "check-langgraph-cli: installing @langchain/langgraph-cli@$CLI_VERSION into $CLI_DIR" >&2
  mkdir -p "$CLI_DIR"
  [ -f "$CLI_DIR/package.json" ] || echo '{"name":"langgraph-cli-check","private":true}' > "$CLI_DIR/package.json"
  (cd "$CLI_DIR" && npm install --no-audit --no-fund --loglevel=error "@langchain/langgraph-cli@$CLI_VERSION" >/dev/null)
  echo "$CLI_VERSION" > "$CLI_DIR/.installed"
fi

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
base="http://127.0.0.1:$port"
work=$(mktemp -d)
log="$work/server.log"
# Its own session, so the watcher and workers it spawns stop with it.
setsid "$CLI_DIR/node_modules/.bin/langgraphjs" dev --no-browser --host 127.0.0.1 --port "$port" >"$log" 2>&1 &
server=$!
stop() { kill -- "-$server" 2>/dev/null || true; rm -rf "$work"; }
trap stop EXIT
fail() { echo "check-langgraph-cli: FAILED: $1" >&2; tail -n 40 "$log" >&2; exit 1; }

for _ in $(seq 1 120); do
  curl -fsS "$base/ok" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || fail "langgraphjs dev exited"
  sleep 0.5
done
curl -fsS "$base/ok" >/dev/null || fail "langgraphjs dev did not answer /ok within 60 s"

assistant=$(curl -fsS -X POST "$base/assistants/search" -H 'content-type: application/json' -d '{"graph_id":"analysis"}' |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].assistant_id))')
npx tsx scripts/langgraph-cli-input.ts "$SAMPLE" "$assistant" >"$work/run.json"
started=$(date +%s%N)
curl -fsS -X POST "$base/runs/wait" -H 'content-type: application/json' --data-binary "@$work/run.json" -o "$work/result.json" ||
  fail "POST /runs/wait"
ms=$(( ($(date +%s%N) - started) / 1000000 ))
curl -fsS "$base/assistants/$assistant/graph" -o "$work/graph.json" || fail "GET /assistants/$assistant/graph"

WORK="$work" MS="$ms" node -e '
const { readFileSync } = require("node:fs");
const result = JSON.parse(readFileSync(`${process.env.WORK}/result.json`, "utf8"));
const graph = JSON.parse(readFileSync(`${process.env.WORK}/graph.json`, "utf8"));
if (result.__error__) throw new Error(`the run failed: ${JSON.stringify(result.__error__)}`);
const agents = Object.keys(result.agentResults ?? {}).sort();
const expected = ["ChecksArtifactsAnalyzer", "CrossArtifactReasoningAgent", "DatasetArtifactsAnalyzer", "ModelCheckpointArtifactsAnalyzer", "OptimizationAdvisorAgent", "TrainingArtifactsAnalyzer"];
if (JSON.stringify(agents) !== JSON.stringify(expected)) throw new Error(`agents ${agents} != ${expected}`);
if (typeof result.summary !== "string" || !result.summary) throw new Error("no summary");
const nodes = graph.nodes.map((n) => n.id).filter((id) => !id.startsWith("__"));
for (const n of ["route", "analyzeDataset", "analyzeChecks", "analyzeTraining", "analyzeCheckpoint", "integrate", "advise"]) {
  if (!nodes.includes(n)) throw new Error(`graph lacks node ${n}`);
}
const findings = Object.values(result.agentResults).reduce((n, r) => n + r.findings.length, 0);
console.log(`check-langgraph-cli: OK: langgraphjs dev served graph "analysis" (${nodes.length} nodes); /runs/wait answered in ${process.env.MS} ms with ${agents.length} agents, ${findings} findings, errors: ${JSON.stringify(Object.keys(result.errors ?? {}))}`);
' || fail "unexpected result"
