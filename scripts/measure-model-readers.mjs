// Measures this project's model-file readers against the libraries considered for them (docs/decisions.md): h5wasm
// (kept) vs jsfive for HDF5, our GGUF header reader vs @huggingface/gguf, our protobuf wire walker vs protobufjs with
// ONNX's onnx.proto. Each measurement runs in a fresh process: wall time and peak RSS growth over the process's RSS
// before the read. Plain JS (run with tsx) so the alternatives, which are not dependencies, are imported only here:
//   npm install --no-save jsfive@0.4.2 @huggingface/gguf@0.4.6 protobufjs@8.8.1
//   bash scripts/fixtures/modelfiles/setup-venv.sh        # onnx.proto and numpy, to write the inline ONNX file
//   npx tsx scripts/measure-model-readers.mjs [MB=512]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [mode, reader, file] = process.argv.slice(2);
const rssMb = () => process.resourceUsage().maxRSS / 1024;

/** One read by one reader; prints { ms, rss_growth_mb, check } where `check` is what it found (for correctness). */
async function measureOne() {
  // Modules (and h5wasm's WebAssembly) are loaded before the clock starts: a service loads them once.
  const loading = performance.now();
  if (reader === "h5wasm") await (await import("h5wasm/node")).ready;
  await import({ h5wasm: "../nodes/checkpoint/file/hdf5.ts", jsfive: "jsfive", "gguf-ours": "../nodes/checkpoint/file/gguf.ts", "gguf-hf": "@huggingface/gguf", "onnx-ours": "../nodes/checkpoint/file/onnx.ts", "onnx-protobufjs": "protobufjs" }[reader]);
  const loadMs = Math.round(performance.now() - loading);
  const before = process.memoryUsage().rss / 1024 ** 2;
  const started = performance.now();
  let check;
  if (reader === "h5wasm") {
    const { readHdf5 } = await import("../nodes/checkpoint/file/hdf5.ts");
    const out = await readHdf5(file, { readValues: () => true });
    check = { tensors: out.tensors.length, nan: out.tensors.reduce((n, t) => n + (t.stats?.nanCount ?? 0), 0) };
  } else if (reader === "jsfive") {
    const hdf5 = await import("jsfive");
    const bytes = readFileSync(file);
    const f = new hdf5.File(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), file);
    let tensors = 0;
    let nan = 0;
    const walk = (g) => {
      for (const k of g.keys) {
        const child = g.get(k);
        if (child instanceof hdf5.Group) walk(child);
        else {
          tensors++;
          for (const v of child.value) if (Number.isNaN(v)) nan++;
        }
      }
    };
    walk(f);
    check = { tensors, nan };
  } else if (reader === "gguf-ours") {
    const { readGguf } = await import("../nodes/checkpoint/file/gguf.ts");
    const fh = await open(file, "r");
    const out = await readGguf(fh, (await fh.stat()).size);
    await fh.close();
    check = { tensors: out.tensors.length, arch: out.metadata["general.architecture"] };
  } else if (reader === "gguf-hf") {
    const { gguf } = await import("@huggingface/gguf");
    const out = await gguf(file, { allowLocalFile: true });
    check = { tensors: out.tensorInfos.length, arch: out.metadata["general.architecture"] };
  } else if (reader === "onnx-ours") {
    const { readOnnx } = await import("../nodes/checkpoint/file/onnx.ts");
    const fh = await open(file, "r");
    const out = await readOnnx(fh, (await fh.stat()).size, file);
    await fh.close();
    check = { tensors: out.tensors.length, located: out.tensors.filter((t) => t.byteRange).length };
  } else if (reader === "onnx-protobufjs") {
    const protobuf = (await import("protobufjs")).default;
    const root = protobuf.loadSync(process.env.ONNX_PROTO);
    const Model = root.lookupType("onnx.ModelProto");
    const model = Model.decode(readFileSync(file));
    check = { tensors: model.graph.initializer.length, located: model.graph.initializer.filter((t) => t.rawData?.length > 0).length };
  }
  console.log(JSON.stringify({ ms: Math.round(performance.now() - started), load_ms: loadMs, rss_growth_mb: Math.round(rssMb() - before), check }));
}

function run(readerName, path, env = {}) {
  const out = execFileSync("npx", ["tsx", new URL(import.meta.url).pathname, "one", readerName, path], { env: { ...process.env, ...env }, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1));
}

async function main() {
  const mb = Number(process.argv[2] ?? 512);
  const dir = mkdtempSync(join(tmpdir(), "model-readers-"));
  const root = new URL("..", import.meta.url).pathname;
  const python = join(root, ".cache/venv-modelfiles/bin/python");
  const proto = execFileSync(python, ["-c", "import onnx, os; print(os.path.join(os.path.dirname(onnx.__file__), 'onnx.proto'))"], { encoding: "utf8" }).trim();
  try {
    const { writeGguf, writeHdf5 } = await import("../bench/data/model-files.ts");
    const h5 = await writeHdf5(dir, mb * 1e6);
    const gg = writeGguf(dir, mb * 1e6);
    const onnxPath = join(dir, "inline.onnx");
    execFileSync(python, ["-c", `
import numpy as np, onnx
from onnx import helper, numpy_helper
n = ${mb} * 1000000 // 4 // 64
inits = [numpy_helper.from_array(np.random.default_rng(i).standard_normal((1024, n // 1024 + 1)).astype(np.float32), f"w{i}") for i in range(64)]
g = helper.make_graph([], "g", [], [], inits)
onnx.save(helper.make_model(g), "${onnxPath}")`]);
    const rows = [
      ["HDF5", "h5wasm (kept)", run("h5wasm", h5.path)], ["HDF5", "jsfive", run("jsfive", h5.path)],
      ["GGUF header", "ours (kept)", run("gguf-ours", gg.path)], ["GGUF header", "@huggingface/gguf", run("gguf-hf", gg.path)],
      ["ONNX structure", "ours (kept)", run("onnx-ours", onnxPath)], ["ONNX structure", "protobufjs + onnx.proto", run("onnx-protobufjs", onnxPath, { ONNX_PROTO: proto })],
    ];
    console.log(`| file (${mb} MB) | reader | time | module load | peak RSS growth | found |\n|---|---|---:|---:|---:|---|`);
    for (const [what, name, r] of rows) console.log(`| ${what} | ${name} | ${r.ms} ms | ${r.load_ms} ms | ${r.rss_growth_mb} MB | ${JSON.stringify(r.check)} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await (mode === "one" ? measureOne() : main());
