import type { FileHandle } from "node:fs/promises";
import { realpath } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type ExternalRoot, readOnnxTensor } from "./onnx-tensor.js";
import { fileSource, type ProtoSource, textField } from "./proto-source.js";
import { messageFields, ProtoError, type WireField } from "./proto-wire.js";
import type { FormatContents, LoadCode } from "./scan-types.js";

/** Operator domains the ONNX runtimes implement themselves; any other needs code that is not in the file. */
const BUILT_IN_DOMAINS = new Set(["", "ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", "ai.onnx.training", "com.microsoft", "com.microsoft.nchwc", "com.microsoft.experimental"]);
/** Custom-domain operators listed one by one; more are counted. */
const MAX_LISTED = 50;

/** ModelProto, GraphProto, NodeProto and AttributeProto field numbers (onnx.proto3). */
const MODEL = { irVersion: 1, producerName: 2, producerVersion: 3, graph: 7, opsetImport: 8, functions: 25 } as const;
const GRAPH = { node: 1, initializer: 5 } as const;
const NODE = { name: 3, opType: 4, attribute: 5, domain: 7 } as const;
const ATTRIBUTE = { t: 5, g: 6, tensors: 10, graphs: 11 } as const;
/** FunctionProto: name 1, node 7, domain 10. */
const FUNCTION = { name: 1, node: 7, domain: 10 } as const;

interface Walk {
  src: ProtoSource;
  root: ExternalRoot;
  out: FormatContents;
  /** Custom-domain operators met, as `domain:op_type` → first node and count. */
  ops: Map<string, { where: string; count: number }>;
}

const decode = (bytes: Uint8Array, base: number, f: WireField) => new TextDecoder().decode(bytes.subarray(f.start - base, f.end - base));

/** A NodeProto: its domain and op type, and the tensors and subgraphs its attributes hold (Constant values, If/Loop bodies). */
async function readNode(w: Walk, f: WireField, prefix: string): Promise<void> {
  const src = await w.src.sub(f.start, f.end);
  let name = "";
  let opType = "";
  let domain = "";
  const attributes: WireField[] = [];
  for await (const n of src.fields(f.start, f.end)) {
    if (n.field === NODE.name) name = await textField(src, n);
    else if (n.field === NODE.opType) opType = await textField(src, n);
    else if (n.field === NODE.domain) domain = await textField(src, n);
    else if (n.field === NODE.attribute) attributes.push(n);
  }
  if (!BUILT_IN_DOMAINS.has(domain)) {
    const key = `${domain}:${opType}`;
    const seen = w.ops.get(key);
    if (seen) seen.count++;
    else w.ops.set(key, { where: prefix + (name || opType), count: 1 });
  }
  for (const a of attributes) {
    for await (const x of src.fields(a.start, a.end)) {
      if (x.field === ATTRIBUTE.t || x.field === ATTRIBUTE.tensors) {
        const { tensor, issues } = await readOnnxTensor(src, x.start, x.end, `${prefix}${name || opType}.`, w.root);
        w.out.tensors.push(tensor);
        w.out.issues.push(...issues);
      } else if (x.field === ATTRIBUTE.g || x.field === ATTRIBUTE.graphs) {
        await readGraph(w, src, x, `${prefix}${name || opType}/`);
      }
    }
  }
}

async function readGraph(w: Walk, src: ProtoSource, f: WireField, prefix: string): Promise<void> {
  for await (const g of src.fields(f.start, f.end)) {
    if (g.field === GRAPH.node) await readNode(w, g, prefix);
    else if (g.field === GRAPH.initializer) {
      const { tensor, issues } = await readOnnxTensor(await src.sub(g.start, g.end), g.start, g.end, prefix, w.root);
      w.out.tensors.push(tensor);
      w.out.issues.push(...issues);
    }
  }
}

/** OperatorSetIdProto (domain 1, version 2) as `domain:version`, the default domain named ai.onnx. */
async function opset(src: ProtoSource, f: WireField): Promise<string> {
  const bytes = await src.bytes(f, 1 << 16);
  let domain = "";
  let version = 0n;
  for (const x of messageFields(bytes, f.start)) {
    if (x.field === 1) domain = decode(bytes, f.start, x);
    else if (x.field === 2) version = x.varint;
  }
  return `${domain || "ai.onnx"}:${version}`;
}

/** A model-local function (FunctionProto) defines its operator in the file: `domain:name`. */
async function localFunction(src: ProtoSource, f: WireField): Promise<string> {
  const bytes = await src.bytes(f);
  let domain = "";
  let name = "";
  for (const x of messageFields(bytes, f.start)) {
    if (x.field === FUNCTION.name) name = decode(bytes, f.start, x);
    else if (x.field === FUNCTION.domain) domain = decode(bytes, f.start, x);
  }
  return `${domain}:${name}`;
}

/**
 * Reads an ONNX model without running or fully decoding it: IR version, opsets and producer; every initializer and
 * Constant tensor (inline `raw_data`, packed `float_data`, or external data beside the model) placed in its file for
 * the statistics pass; operators of custom domains, which need code the file does not hold (a model-local function
 * defines its operator and is not one). A truncated or malformed file keeps what was read before the fault.
 */
export async function readOnnx(fh: FileHandle, fileSize: number, path: string): Promise<FormatContents> {
  const out: FormatContents = { tensors: [], issues: [], metadata: {}, loadCode: [] };
  const dir = resolve(dirname(path));
  const w: Walk = { src: fileSource(fh), root: { dir, realDir: await realpath(dir) }, out, ops: new Map() };
  const opsets: string[] = [];
  const functions = new Set<string>();
  try {
    for await (const f of w.src.fields(0, fileSize)) {
      if (f.field === MODEL.irVersion) out.metadata["onnx.ir_version"] = String(f.varint);
      else if (f.field === MODEL.producerName) out.metadata["onnx.producer"] = await textField(w.src, f);
      else if (f.field === MODEL.producerVersion) out.metadata["onnx.producer_version"] = await textField(w.src, f);
      else if (f.field === MODEL.opsetImport) opsets.push(await opset(w.src, f));
      else if (f.field === MODEL.functions) functions.add(await localFunction(w.src, f));
      else if (f.field === MODEL.graph) await readGraph(w, w.src, f, "");
    }
  } catch (err) {
    if (!(err instanceof ProtoError)) throw err;
    out.issues.push(err.truncated
      ? { kind: "truncated", detail: `ONNX model: ${err.message}`, actualBytes: fileSize }
      : { kind: "bad_header", detail: `ONNX model: ${err.message}` });
  }
  if (opsets.length > 0) out.metadata["onnx.opset"] = opsets.join(", ");
  const custom = [...w.ops].filter(([key]) => !functions.has(key));
  out.loadCode = custom.slice(0, MAX_LISTED).map(([key, { where, count }]): LoadCode => ({
    kind: "onnx_custom_domain", where, name: key, detail: `operator ${key.split(":")[1]} of domain ${key.split(":")[0]} (${count} node${count === 1 ? "" : "s"})`,
  }));
  return out;
}
