import type { FileHandle } from "node:fs/promises";
import { fileSource, type ProtoSource, textField } from "./proto-source.js";
import { ProtoError, type WireField } from "./proto-wire.js";
import type { FormatContents, LoadCode } from "./scan-types.js";

/**
 * TensorFlow operations that reach files or the Python interpreter when the graph runs. modelscan flags ReadFile and
 * WriteFile (settings.py `unsafe_tf_operators`, protectai/modelscan 8b8ed4b); the py_func family calls back into
 * Python, and Save/Restore outside the saver's own functions read or write arbitrary checkpoint paths.
 */
const REACHING_OPS: ReadonlyMap<string, string> = new Map([
  ["ReadFile", "reads a file"], ["WriteFile", "writes a file"], ["MatchingFiles", "lists files"],
  ["PyFunc", "calls a Python function"], ["PyFuncStateless", "calls a Python function"], ["EagerPyFunc", "calls a Python function"],
  ["Save", "writes a checkpoint file"], ["SaveV2", "writes a checkpoint file"], ["SaveSlices", "writes a checkpoint file"],
  ["Restore", "reads a checkpoint file"], ["RestoreV2", "reads a checkpoint file"], ["RestoreSlice", "reads a checkpoint file"],
  ["MergeV2Checkpoints", "writes checkpoint files"],
]);
const SAVER_OPS = /^(Save|SaveV2|SaveSlices|Restore|RestoreV2|RestoreSlice|MergeV2Checkpoints)$/;
/** Where TensorFlow's own saver puts them: TF2's traced save/restore functions, TF1's `save/` scope. */
const SAVER_SCOPE = /(^|_)traced_(save|restore)(_|$)|^save(_\d+)?\//;
const MAX_LISTED = 50;

/** saved_model.proto / meta_graph.proto / graph.proto / function.proto field numbers. */
const F = { metaGraphs: 2, metaInfoDef: 1, tfVersion: 5, graphDef: 2, node: 1, library: 2, function: 1, signature: 1, nodeDef: 3, nodeName: 1, op: 2 } as const;

interface Found {
  out: FormatContents;
  count: Map<string, { code: LoadCode; n: number }>;
}

async function readNodeDef(src: ProtoSource, f: WireField, scope: string, found: Found): Promise<void> {
  const node = await src.sub(f.start, f.end);
  let name = "";
  let op = "";
  for await (const x of node.fields(f.start, f.end)) {
    if (x.field === F.nodeName) name = await textField(node, x);
    else if (x.field === F.op) op = await textField(node, x);
  }
  const what = REACHING_OPS.get(op);
  if (!what || (SAVER_OPS.test(op) && (SAVER_SCOPE.test(scope) || SAVER_SCOPE.test(name)))) return;
  const key = `${op}@${scope}`;
  const seen = found.count.get(key);
  if (seen) seen.n++;
  else found.count.set(key, { code: { kind: "tf_op", where: scope ? `${scope}/${name}` : name, name: op, detail: what }, n: 1 });
}

async function readFunction(src: ProtoSource, f: WireField, found: Found): Promise<void> {
  const fn = await src.sub(f.start, f.end);
  let name = "";
  const nodes: WireField[] = [];
  for await (const x of fn.fields(f.start, f.end)) {
    if (x.field === F.signature) {
      for await (const s of fn.fields(x.start, x.end)) if (s.field === 1) name = await textField(fn, s);
    } else if (x.field === F.nodeDef) nodes.push(x);
  }
  for (const n of nodes) await readNodeDef(fn, n, name, found);
}

async function readGraphDef(src: ProtoSource, f: WireField, found: Found): Promise<void> {
  for await (const x of src.fields(f.start, f.end)) {
    if (x.field === F.node) await readNodeDef(src, x, "", found);
    else if (x.field === F.library) for await (const fn of src.fields(x.start, x.end)) if (fn.field === F.function) await readFunction(src, fn, found);
  }
}

/**
 * Reads a SavedModel's saved_model.pb without TensorFlow: the TensorFlow version that wrote it and every operation,
 * in the graph and in its functions, that reaches files or the interpreter. The variables beside it are read by
 * tensor-bundle.ts.
 */
export async function readSavedModel(fh: FileHandle, fileSize: number): Promise<FormatContents> {
  const found: Found = { out: { tensors: [], issues: [], metadata: {}, loadCode: [] }, count: new Map() };
  const src = fileSource(fh);
  try {
    for await (const mg of src.fields(0, fileSize)) {
      if (mg.field !== F.metaGraphs) continue;
      for await (const x of src.fields(mg.start, mg.end)) {
        if (x.field === F.metaInfoDef) {
          for await (const m of src.fields(x.start, x.end)) if (m.field === F.tfVersion) found.out.metadata.tensorflow_version = await textField(src, m);
        } else if (x.field === F.graphDef) await readGraphDef(src, x, found);
      }
    }
  } catch (err) {
    if (!(err instanceof ProtoError)) throw err;
    found.out.issues.push(err.truncated ? { kind: "truncated", detail: `saved_model.pb: ${err.message}`, actualBytes: fileSize } : { kind: "bad_header", detail: `saved_model.pb: ${err.message}` });
  }
  found.out.loadCode = [...found.count.values()].slice(0, MAX_LISTED).map(({ code, n }) => (n > 1 ? { ...code, detail: `${code.detail} (${n} nodes)` } : code));
  return found.out;
}
