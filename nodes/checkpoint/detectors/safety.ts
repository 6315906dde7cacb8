import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { type DangerClass, TIER_SEVERITY, worstTier } from "../file/pickle-policy.js";
import type { ScannedGlobal } from "../file/pickle-scan.js";
import type { CheckpointInfo } from "../table.js";

const DANGER_TEXT: Record<DangerClass, string> = {
  process: "runs shell commands or processes",
  code: "evaluates or compiles arbitrary code",
  network: "opens network connections or a browser",
  filesystem: "reads, writes or deletes files",
  nested_pickle: "unpickles further data that this scan cannot see",
  call_gadget: "builds arbitrary calls from attributes",
  interpreter: "reaches the interpreter, debugger or native code",
  package: "installs packages",
  unresolved: "imports a global that cannot be resolved statically",
};

const qualified = (g: ScannedGlobal) => `${g.module}.${g.name}`;

/** CK-01, graded by the trust policy (pickle-policy.ts): dangerous imports → critical; unknown imports, EXT
 * opcodes or unreadable pickles → medium; only known ML libraries' classes → low. */
export function detectUnsafePickle(info: CheckpointInfo): Finding[] {
  const tier = worstTier(info.pickles);
  if (tier === "safe") return [];
  if (tier === "library") return libraryPickle(info);
  const dangerous = info.pickles.flatMap((p) => p.globals.filter((g) => g.safety === "dangerous").map((g) => ({ p, g })));
  const suspicious = info.pickles.flatMap((p) => p.globals.filter((g) => g.safety === "suspicious").map((g) => ({ p, g })));
  const ext = info.pickles.filter((p) => p.extCodes.length > 0);
  const broken = info.pickles.filter((p) => p.error !== null || p.partial);
  const evidence: Evidence[] = [
    ...dangerous.map(({ p, g }) => ({
      rule_id: "CK-01", artifact: `model_checkpoint_artifacts.checkpoint_path:${p.entry}`,
      text: `${p.entry} imports ${qualified(g)} (${g.opcode}), which ${DANGER_TEXT[g.danger!]}.`, observed: qualified(g), values: { class: g.danger, count: g.count },
    })),
    ...suspicious.slice(0, 10).map(({ p, g }) => ({
      rule_id: "CK-01", artifact: `model_checkpoint_artifacts.checkpoint_path:${p.entry}`,
      text: `${p.entry} imports ${qualified(g)}, which is on no safe list and in no known ML library: loading it runs that class's code.`, observed: qualified(g),
    })),
    ...ext.map((p) => ({ rule_id: "CK-01", artifact: `model_checkpoint_artifacts.checkpoint_path:${p.entry}`, text: `${p.entry} uses EXT opcodes (codes ${p.extCodes.join(", ")}), importing through the copyreg extension registry.`, observed: p.extCodes.length })),
    ...broken.map((p) => ({ rule_id: "CK-01", artifact: `model_checkpoint_artifacts.checkpoint_path:${p.entry}`, text: p.partial ? `${p.entry} is larger than the scan reads: only its first ${p.bytes} bytes were checked.` : `${p.entry} could not be read to its end (${p.error}): imports after that point are unknown.` })),
  ];
  if (tier === "dangerous") {
    const names = [...new Set(dangerous.map(({ g }) => qualified(g)))];
    return [detectorFinding({
      id: "checkpoint.unsafe_pickle",
      title: "Checkpoint pickle imports dangerous code: do not load it",
      description: `The checkpoint's pickle imports ${names.join(", ")}. Loading it with torch.load(weights_only=False), pickle or joblib would execute that code on the loading machine. Do not load this file.`,
      evidence,
      severity: TIER_SEVERITY.dangerous,
      confidence: 0.95,
      recommendation: { action: "Do not load this file. Obtain the weights from a trusted source as safetensors, or inspect them only with torch.load(weights_only=True) in an isolated environment.", rationale: "A pickle can run any code when it is loaded; these imports are the known ways to do so (picklescan/modelscan lists).", category: "infrastructure", effort: "low" },
    })];
  }
  const names = [...new Set(suspicious.map(({ g }) => qualified(g)))];
  return [detectorFinding({
    id: "checkpoint.unsafe_pickle",
    title: "Checkpoint pickle imports code the scan cannot vouch for",
    description: names.length > 0
      ? `The checkpoint's pickle imports ${names.slice(0, 6).join(", ")}${names.length > 6 ? "…" : ""}, which are on no safe list and in no known ML library: loading it runs those classes' code.`
      : "Part of the checkpoint's pickle could not be checked (EXT opcodes, an unreadable or oversized pickle).",
    evidence,
    severity: TIER_SEVERITY.suspicious,
    confidence: 0.7,
    recommendation: { action: "Load with torch.load(weights_only=True) (default since PyTorch 2.6), allowlisting only the classes you trust, or re-export the weights as safetensors.", rationale: "weights_only refuses imports outside its allowlist, so unknown classes cannot run code.", category: "infrastructure", effort: "low" },
  })];
}

/** The library tier: loading runs only known ML libraries' code, which is trusted for the version that wrote it. */
function libraryPickle(info: CheckpointInfo): Finding[] {
  const libraries = [...new Set(info.pickles.flatMap((p) => p.globals.flatMap((g) => (g.library ? [g.library] : []))))];
  const versions = info.pickles.flatMap((p) => p.versions);
  const recorded = versions.length > 0 ? ` The file records ${versions.map((v) => `${v.library} ${v.version}`).join(", ")}.` : "";
  return [detectorFinding({
    id: "checkpoint.library_pickle",
    title: `Loading this file runs ${libraries.join(", ")} code`,
    description: `The pickle imports only classes of ${libraries.join(", ")} (and plain containers): loading it runs this library's code, which is safe only with the same library version that wrote it.${recorded}`,
    evidence: info.pickles.flatMap((p) => {
      const names = p.globals.filter((g) => g.safety === "library").map(qualified);
      return names.length === 0 ? [] : [{ rule_id: "CK-01", artifact: `model_checkpoint_artifacts.checkpoint_path:${p.entry}`, text: `${p.entry} imports ${names.slice(0, 8).join(", ")}${names.length > 8 ? ` and ${names.length - 8} more` : ""}.`, observed: names.length, values: Object.fromEntries(p.versions.map((v) => [v.library, v.version])) }];
    }),
    severity: TIER_SEVERITY.library,
    confidence: 0.8,
    recommendation: {
      action: `Load only with the same library version${versions.length > 0 ? ` (${versions.map((v) => `${v.library} ${v.version}`).join(", ")})` : ""} and only files from a source you trust; prefer the library's own format (skops, XGBoost/LightGBM JSON, ONNX, safetensors) for sharing.`,
      rationale: "Another version may reconstruct the objects wrongly or refuse them; the pickle itself can still run these libraries' code on load.",
      category: "infrastructure", effort: "low",
    },
  })];
}

/** Safe-listed imports that torch's weights_only allowlist still refuses: loading needs weights_only=False. */
export function detectRequiresUnsafeLoad(info: CheckpointInfo): Finding[] {
  const all = info.pickles.flatMap((p) => p.globals);
  if (all.some((g) => g.safety !== "safe")) return [];
  const outside = [...new Set(all.filter((g) => !g.weightsOnly).map(qualified))];
  if (outside.length === 0) return [];
  return [detectorFinding({
    id: "checkpoint.requires_unsafe_load",
    title: "Checkpoint needs weights_only=False to load",
    description: `The checkpoint imports ${outside.join(", ")}, which torch.load(weights_only=True) refuses by default: loading it needs weights_only=False or torch.serialization.add_safe_globals.`,
    evidence: [{ rule_id: "CK-01", artifact: "model_checkpoint_artifacts.checkpoint_path", text: `Imports outside torch's weights_only allowlist: ${outside.join(", ")}.`, observed: outside.length }],
    severity: "low",
    confidence: 0.8,
    recommendation: { action: "Allowlist these classes with torch.serialization.add_safe_globals, or save hyperparameters as plain dicts so the checkpoint loads with weights_only=True.", rationale: "Loading with weights_only=False disables the protection against code in pickles.", category: "infrastructure", effort: "low" },
  })];
}

/** CK-01: parts of the file the safety scan could not open (encrypted or 7z/gzip-compressed, oversized): not silence. */
export function detectUnverifiedContent(info: CheckpointInfo): Finding[] {
  if (info.unverified.length === 0) return [];
  const names = info.unverified.slice(0, 6).map((u) => u.entry);
  return [detectorFinding({
    id: "checkpoint.unverified_content",
    title: "Part of the checkpoint could not be verified as safe to load",
    description: `The scan could not look inside ${names.join(", ")}${info.unverified.length > 6 ? "…" : ""}: ${info.unverified[0]!.reason}. Whatever pickle it holds was not checked, so loading it is not known to be safe.`,
    evidence: info.unverified.slice(0, 8).map((u) => ({ rule_id: "CK-01", artifact: `model_checkpoint_artifacts.checkpoint_path:${u.entry}`, text: `${u.entry} could not be checked: ${u.reason}.` })),
    severity: "medium",
    confidence: 0.6,
    recommendation: { action: "Unpack the archive yourself and send the extracted files (or scan them with picklescan/modelscan) before loading anything in it; prefer safetensors.", rationale: "A pickle the scan could not read can run code when loaded, as any other pickle.", category: "infrastructure", effort: "low" },
  })];
}
