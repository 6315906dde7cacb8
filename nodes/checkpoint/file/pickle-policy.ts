/**
 * The trust policy of pickled files: which imported globals are dangerous, which belong to a known ML library,
 * which are safe, and which are merely unknown ("suspicious"), and what each tier deserves (TIER_SEVERITY). The
 * dangerous lists follow picklescan's `_unsafe_globals` (mmaitre314/picklescan, src/picklescan/scanner.py) and
 * modelscan's `unsafe_globals` (protectai/modelscan, modelscan/settings.py; FORMATS.md §6.4); a submodule of a
 * whole-module entry is dangerous too. The safe list is picklescan's plus the containers ordinary training
 * checkpoints carry; the library table is pickle-libraries.ts.
 */
import { JOBLIB_ARRAY_WRAPPER, libraryOf } from "./pickle-libraries.js";

/** The tiers, from worst to best. */
export type GlobalSafety = "dangerous" | "suspicious" | "library" | "safe";

/**
 * The grading table: a pickle is graded by its worst import. Dangerous code runs on load → critical; an unknown
 * module's code runs → medium; a known library's code runs, trusted as far as that library and its version →
 * low; containers and tensors only → no finding.
 */
export const TIER_SEVERITY = { dangerous: "critical", suspicious: "medium", library: "low", safe: null } as const;

/** Why a dangerous global is dangerous, for the finding's text and for tests. */
export type DangerClass =
  | "process" // spawns a shell or process
  | "code" // evaluates or compiles code
  | "network" // opens a connection or a browser
  | "filesystem" // reads, writes or deletes files
  | "nested_pickle" // unpickles more data, out of sight of this scan
  | "call_gadget" // builds a callable from attributes (partial, attrgetter…)
  | "interpreter" // reaches the interpreter, debugger or native code
  | "package" // installs packages
  | "unresolved"; // the import could not be resolved statically

const WHOLE_MODULES: Record<string, DangerClass> = {
  os: "process", posix: "process", nt: "process", subprocess: "process", _posixsubprocess: "process", pty: "process",
  commands: "process", multiprocessing: "process", signal: "process",
  runpy: "code", code: "code", codeop: "code", importlib: "code", marshal: "code",
  socket: "network", ssl: "network", httplib: "network", "http.client": "network", "requests.api": "network",
  requests: "network", httpx: "network", urllib3: "network", "urllib.request": "network", urllib2: "network",
  aiohttp: "network", webbrowser: "network", ftplib: "network", smtplib: "network", telnetlib: "network",
  poplib: "network", "xmlrpc.client": "network", asyncio: "network",
  shutil: "filesystem", tempfile: "filesystem", distutils: "filesystem",
  pickle: "nested_pickle", _pickle: "nested_pickle", cPickle: "nested_pickle", dill: "nested_pickle",
  cloudpickle: "nested_pickle", joblib: "nested_pickle", shelve: "nested_pickle", "pandas.io.pickle": "nested_pickle",
  sys: "interpreter", pdb: "interpreter", bdb: "interpreter", ctypes: "interpreter", _ctypes: "interpreter",
  timeit: "interpreter", cProfile: "interpreter", profile: "interpreter", pydoc: "interpreter", gc: "interpreter",
  _osx_support: "interpreter", _aix_support: "interpreter", _pyrepl: "interpreter", test: "interpreter",
  uuid: "process", "numpy.f2py": "code", "numpy.testing._private.utils": "process",
  pip: "package", ensurepip: "package", venv: "package", setuptools: "package",
};

const BUILTIN_DANGEROUS = new Set([
  "eval", "exec", "execfile", "compile", "getattr", "setattr", "delattr", "apply", "open", "breakpoint",
  "__import__", "input", "globals", "locals", "vars",
]);

const NAMED: Record<string, DangerClass> = {
  "functools.partial": "call_gadget", "_functools.partial": "call_gadget",
  "operator.attrgetter": "call_gadget", "operator.itemgetter": "call_gadget", "operator.methodcaller": "call_gadget",
  "_operator.attrgetter": "call_gadget", "_operator.itemgetter": "call_gadget", "_operator.methodcaller": "call_gadget",
  "types.CodeType": "code", "types.FunctionType": "code", "pkgutil.resolve_name": "code",
  "doctest.debug_script": "code", "trace.Trace.run": "code", "trace.Trace.runctx": "code",
  "logging.FileHandler": "filesystem", "_io.FileIO": "filesystem", "io.FileIO": "filesystem", "io.open": "filesystem",
  "imaplib.IMAP4_stream": "process", "ensurepip._run_pip": "package",
  "torch.serialization.load": "nested_pickle", "torch.load": "nested_pickle", "numpy.load": "nested_pickle",
  "numpy.lib.npyio.load": "nested_pickle", "numpy.lib._npyio_impl.load": "nested_pickle", "pandas.read_pickle": "nested_pickle",
  // Evaluate expression strings; not on picklescan's list, but a library tier must not vouch for them.
  "pandas.eval": "code", "pandas.core.computation.eval.eval": "code",
  "torch._inductor.codecache.compile_file": "code", "torch.jit.unsupported_tensor_ops.execWrapper": "code",
  "torch._dynamo.guards.GuardBuilder.get": "code",
  "torch.fx.experimental.symbolic_shapes.ShapeEnv.evaluate_guards_expression": "code",
  "torch.utils._config_module.ConfigModule.load_config": "code", "torch.utils.collect_env.run": "process",
  "torch.utils.data.datapipes.utils.decoder.basichandlers": "nested_pickle",
};

/** Prefix entries: everything under them is dangerous (picklescan lists them with `*`). */
const DANGEROUS_PREFIXES: Array<[string, DangerClass]> = [
  // torch.hub.load runs a downloaded repository's hubconf.py.
  ["torch.hub", "code"],
  ["torch.utils.bottleneck.__main__", "code"],
  ["idlelib", "code"],
  ["lib2to3", "code"],
];

const SAFE = new Set([
  "collections.OrderedDict", "collections.Counter", "collections.defaultdict", "collections.deque",
  "builtins.set", "builtins.frozenset", "builtins.bytearray", "builtins.bytes", "builtins.complex", "builtins.slice",
  "builtins.range", "builtins.dict", "builtins.list", "builtins.tuple", "builtins.int", "builtins.float",
  "builtins.str", "builtins.bool", "builtins.object", "_codecs.encode", "copyreg._reconstructor",
  "torch.Size", "torch.Tensor", "torch.device", "torch.nn.parameter.Parameter", "torch.serialization._get_layout",
  "torch._tensor._rebuild_from_type_v2", "torch.torch_version.TorchVersion",
  "numpy.ndarray", "numpy.dtype", "numpy.core.multiarray._reconstruct", "numpy._core.multiarray._reconstruct",
  "numpy.core.multiarray.scalar", "numpy._core.multiarray.scalar",
  // Containers Lightning writes for hyperparameters and callback state: dict/attribute holders whose
  // construction and __setstate__ only store values.
  "lightning.fabric.utilities.data.AttributeDict", "lightning_fabric.utilities.data.AttributeDict",
  "pytorch_lightning.utilities.parsing.AttributeDict", "argparse.Namespace",
  "omegaconf.dictconfig.DictConfig", "omegaconf.listconfig.ListConfig", "omegaconf.base.ContainerMetadata",
  "omegaconf.base.Metadata", "typing.Any", "pathlib.PosixPath", "pathlib.WindowsPath", "pathlib.Path",
  "datetime.datetime", "datetime.date", "datetime.timedelta",
  // What the Hugging Face Trainer pickles into every checkpoint's training_args.bin (transformers 4.x–5.x,
  // accelerate 1.x): dataclasses and str enums without __reduce__ or __setstate__ of their own, so unpickling only
  // looks up enum members and stores field values.
  "transformers.training_args.TrainingArguments", "transformers.training_args.OptimizerNames",
  "transformers.trainer_utils.IntervalStrategy", "transformers.trainer_utils.SaveStrategy",
  "transformers.trainer_utils.HubStrategy", "transformers.trainer_utils.SchedulerType",
  "transformers.trainer_pt_utils.AcceleratorConfig", "accelerate.state.PartialState",
  "accelerate.utils.dataclasses.DistributedType",
]);

/**
 * Names inside known libraries that the library tier does not vouch for: they unpickle nested bytes without
 * torch's weights_only protection (torch ≥ 2.6 `_load_from_bytes` calls torch.load(weights_only=False)), bytes this
 * scan does not read. Unknown, so medium.
 */
const NOT_VOUCHED = new Set(["torch._utils._load_from_bytes"]);

const TORCH_DTYPES = new Set([
  "float32", "float", "float64", "double", "float16", "half", "bfloat16", "int8", "uint8", "int16", "short", "int32",
  "int", "int64", "long", "bool", "complex32", "complex64", "cfloat", "complex128", "cdouble", "float8_e4m3fn",
  "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "uint16", "uint32", "uint64",
]);

/** torch.load(weights_only=True)'s default allowlist (torch ≥ 2.4, `_get_allowed_globals`), approximately. */
const WEIGHTS_ONLY = new Set([
  "collections.OrderedDict", "collections.Counter", "torch.nn.parameter.Parameter", "torch.serialization._get_layout",
  "torch.Size", "torch.Tensor", "torch.device", "torch._tensor._rebuild_from_type_v2", "_codecs.encode",
  "builtins.set", "builtins.frozenset", "builtins.bytearray", "builtins.complex",
]);

function isTorchStorageOrRebuild(module: string, name: string): boolean {
  return (
    (module === "torch" && (name.endsWith("Storage") || TORCH_DTYPES.has(name) || name.endsWith("Tensor"))) ||
    (module === "torch.storage" && (name === "UntypedStorage" || name === "TypedStorage")) ||
    (module === "torch._utils" && name.startsWith("_rebuild_"))
  );
}

export interface GlobalVerdict {
  safety: GlobalSafety;
  danger: DangerClass | null;
  /** The known library whose code loading runs ("library" tier), else null. */
  library: string | null;
  /** torch.load(weights_only=True) would accept this global. */
  weightsOnly: boolean;
}

function dangerOf(module: string, name: string): DangerClass | null {
  if (module === "unknown" || name === "unknown") return "unresolved";
  if ((module === "builtins" || module === "__builtins__") && BUILTIN_DANGEROUS.has(name)) return "code";
  const qualified = `${module}.${name}`;
  // Under the joblib whole-module entry, but it only carries an array's metadata (joblib-arrays.ts reads it).
  if (qualified === JOBLIB_ARRAY_WRAPPER) return null;
  const named = NAMED[qualified];
  if (named) return named;
  for (const [prefix, cls] of DANGEROUS_PREFIXES) if (qualified === prefix || qualified.startsWith(`${prefix}.`)) return cls;
  // `os.path` is a submodule of `os`: walk up the dotted module path.
  const parts = module.split(".");
  for (let i = parts.length; i > 0; i--) {
    const cls = WHOLE_MODULES[parts.slice(0, i).join(".")];
    if (cls) return cls;
  }
  return null;
}

/** Python 2 module names that protocol ≤ 2 pickles still carry (pickle's fix_imports maps them on load). */
const PY2_MODULES: Record<string, string> = { __builtin__: "builtins", copy_reg: "copyreg" };

/** Classifies one imported global. */
export function classifyGlobal(rawModule: string, name: string): GlobalVerdict {
  const module = PY2_MODULES[rawModule] ?? rawModule;
  const danger = dangerOf(module, name);
  const qualified = `${module}.${name}`;
  const torchSafe = isTorchStorageOrRebuild(module, name);
  const safe = !danger && (torchSafe || SAFE.has(qualified));
  const library = danger || safe || NOT_VOUCHED.has(qualified) ? null : libraryOf(module, name);
  return {
    safety: danger ? "dangerous" : safe ? "safe" : library ? "library" : "suspicious",
    danger,
    library,
    weightsOnly: !danger && (torchSafe || WEIGHTS_ONLY.has(qualified)),
  };
}

const TIER_ORDER: readonly GlobalSafety[] = ["dangerous", "suspicious", "library", "safe"];

/**
 * The worst tier among pickles' imports. A pickle the scan could not read whole (EXT opcodes, a parse error, only
 * a prefix read) counts as unknown: what it would import is not known.
 */
export function worstTier(pickles: ReadonlyArray<{ globals: ReadonlyArray<{ safety: GlobalSafety }>; extCodes: readonly number[]; error: string | null; partial: boolean }>): GlobalSafety {
  const tiers = new Set<GlobalSafety>(pickles.flatMap((p) => p.globals.map((g) => g.safety)));
  if (pickles.some((p) => p.extCodes.length > 0 || p.error !== null || p.partial)) tiers.add("suspicious");
  return TIER_ORDER.find((t) => tiers.has(t)) ?? "safe";
}
