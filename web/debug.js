// The debug page: draws the graph, runs a request with streaming, lights nodes up, shows the report.
// Plain browser JavaScript, no build step; every request goes to this server (the page's CSP enforces it).
"use strict";

const $ = (id) => document.getElementById(id);
const MAX_EVENTS = 300;
const page = { controller: null, result: null, started: 0, finished: 0, nodes: new Set() };

/** Mermaid's SVG group for a graph node (its id is "graph-svg-flowchart-<node>-<n>"), or null. */
function nodeElement(name) {
  for (const el of $("graph").querySelectorAll("g.node")) {
    if (/-flowchart-(.+)-\d+$/.exec(el.id)?.[1] === name) return el;
  }
  return null;
}

/** Marks a node's state (running, done, error) and writes a small label under it. */
function markNode(name, state, label) {
  const el = nodeElement(name);
  if (!el) return;
  el.classList.remove("state-running", "state-done", "state-error");
  el.classList.add(`state-${state}`);
  el.querySelector(".node-timing")?.remove();
  if (!label) return;
  const box = el.getBBox();
  const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
  text.setAttribute("class", "node-timing");
  text.setAttribute("x", String(box.x + box.width / 2));
  text.setAttribute("y", String(box.y + box.height + 13));
  text.setAttribute("text-anchor", "middle");
  text.textContent = label;
  el.appendChild(text);
}

function resetNodes() {
  for (const el of $("graph").querySelectorAll("g.node")) {
    el.classList.remove("state-running", "state-done", "state-error");
    el.querySelector(".node-timing")?.remove();
  }
}

async function drawGraph() {
  const text = await (await fetch("/v1/graph?format=mermaid")).text();
  const json = await (await fetch("/v1/graph")).json();
  page.nodes = new Set(json.nodes.filter((n) => n.kind === "node").map((n) => n.id));
  window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "base", fontFamily: "system-ui, sans-serif",
    themeVariables: { primaryColor: "#eef2f8", primaryBorderColor: "#9aa5b4", lineColor: "#7b8794", fontSize: "15px" } });
  // LangGraph's classDef lines become inline `fill … !important` styles no stylesheet can override; drop them so
  // the page's theme and the run-state colours apply.
  const { svg } = await window.mermaid.render("graph-svg", text.replace(/^\s*classDef .*$/gm, ""));
  $("graph").innerHTML = svg;
  $("graph").dataset.ready = "true";
}

function logEvent(kind, text) {
  const li = document.createElement("li");
  li.className = `event-${kind}`;
  const tag = document.createElement("span");
  tag.className = "event-kind";
  tag.textContent = kind;
  li.append(tag, " ", text);
  const list = $("events");
  list.appendChild(li);
  while (list.children.length > MAX_EVENTS) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function setStatus(text, state) {
  $("status").textContent = text;
  $("status").dataset.state = state;
}

const ms = (x) => `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;

/** What the grounding pass removed from a node's model answer, as the span reports it (counts and reasons). */
function grounded(g) {
  if (!g) return "";
  const reasons = Object.entries(g.reasons).filter(([, n]) => n > 0).map(([reason, n]) => `${reason} ${n}`);
  return ` · grounding: ${g.removed} of ${g.checked} removed${reasons.length ? ` (${reasons.join(", ")})` : ""}`;
}

function onEvent(event, data) {
  switch (event) {
    case "run_started":
      markNode("__start__", "done");
      logEvent(event, `request ${data.request_id}: ${data.artifacts.join(", ")}`);
      break;
    case "node_started":
      markNode(data.node, "running", "running…");
      logEvent(event, `${data.node} (step ${data.step}) at +${ms(data.start_ms)}`);
      break;
    case "node_finished": {
      page.finished++;
      const findings = data.findings === null ? "" : ` · ${data.findings} finding${data.findings === 1 ? "" : "s"}`;
      markNode(data.node, data.outcome === "ok" ? "done" : "error", `${ms(data.duration_ms)}${findings}`);
      logEvent(event, `${data.node} ${data.outcome} in ${ms(data.duration_ms)}${findings}${grounded(data.grounding)}${data.error ? ` · ${data.error}` : ""}`);
      setStatus(`Running… ${page.finished} of ${page.nodes.size} nodes finished`, "running");
      break;
    }
    case "progress":
      logEvent(event, `${data.node ?? ""} ${data.message}`);
      break;
    case "result":
      markNode("__end__", "done");
      page.result = data;
      logEvent(event, `${Object.keys(data.agent_results).length} agent results`);
      break;
    case "error":
      logEvent(event, `${data.code}: ${data.detail}`);
      setStatus(`Failed: ${data.detail}`, "error");
      break;
    default:
      logEvent(event, JSON.stringify(data));
  }
}

/** Reads server-sent events from a fetch response (EventSource cannot POST). */
async function readEvents(res) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length) onEvent(event, JSON.parse(data.join("\n")));
    }
  }
}

/** Adds `"trace": true` in front of the body's keys; a `trace` the body sets itself comes later and wins. */
function withTrace(text) {
  return /^\s*\{\s*"/.test(text) ? text.replace(/^\s*\{/, '{"trace": true, ') : text;
}

async function showReport(result) {
  const res = await fetch("/debug/report", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(result) });
  // The server renders the report with every request-supplied text escaped, so it is safe to insert.
  $("report").innerHTML = await res.text();
  $("report-panel").hidden = false;
}

async function run() {
  const text = $("body").value;
  if (!text.trim()) return setStatus("Paste, upload or choose a request first.", "error");
  page.controller = new AbortController();
  page.result = null;
  page.finished = 0;
  resetNodes();
  $("events").replaceChildren();
  $("report-panel").hidden = true;
  $("run").disabled = true;
  $("stop").disabled = false;
  $("save").disabled = true;
  setStatus("Starting…", "running");
  const t0 = performance.now();
  try {
    const res = await fetch("/v1/analyse", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: $("trace").checked ? withTrace(text) : text,
      signal: page.controller.signal,
    });
    if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      const body = await res.json().catch(() => ({ detail: res.statusText }));
      onEvent("error", { code: res.status, detail: body.detail });
      return;
    }
    await readEvents(res);
    if (page.result) {
      const findings = Object.values(page.result.agent_results).reduce((n, r) => n + r.findings.length, 0);
      setStatus(`Done in ${ms(performance.now() - t0)}: ${findings} findings, ${Object.keys(page.result.error_messages).length} agent errors`, "done");
      $("save").disabled = false;
      await showReport(page.result);
    }
  } catch (err) {
    setStatus(err.name === "AbortError" ? "Stopped: the run was cancelled." : `Failed: ${err.message}`, "error");
  } finally {
    $("run").disabled = false;
    $("stop").disabled = true;
  }
}

async function saveReport() {
  const res = await fetch("/debug/report?format=page", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(page.result) });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await res.blob());
  link.download = `diagnosis-${(page.result.dataset_name ?? "report").replace(/[^\w.-]+/g, "_")}.html`;
  link.click();
  URL.revokeObjectURL(link.href);
}

async function loadSamples() {
  const samples = await (await fetch("/debug/samples")).json();
  for (const s of samples) $("sample").add(new Option(s.name.replaceAll("-", " "), s.file));
  $("sample").addEventListener("change", async () => {
    if (!$("sample").value) return;
    $("body").value = await (await fetch(`/debug/samples/${encodeURIComponent($("sample").value)}`)).text();
  });
}

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) $("body").value = await file.text();
});
$("run").addEventListener("click", run);
$("stop").addEventListener("click", () => page.controller?.abort());
$("save").addEventListener("click", saveReport);
Promise.all([drawGraph(), loadSamples()]).catch((err) => setStatus(`Could not load the page: ${err.message}`, "error"));
