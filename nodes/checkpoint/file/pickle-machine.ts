import { isJoblibArrayWrapper, type JoblibArray, readJoblibArray } from "./joblib-arrays.js";
import { Cursor, PickleFormatError } from "./pickle-cursor.js";
import { NOT_LITERAL, readLiteral } from "./pickle-literals.js";
import { PyCall, PyDict, PyGlobal, PyPersistent, PySet, PyTuple, PyUnknown, type PyValue } from "./pickle-values.js";

/** One import a pickle makes: what a real unpickler would import and hand to REDUCE/BUILD/NEWOBJ. */
export interface ImportedGlobal {
  module: string;
  name: string;
  opcode: "GLOBAL" | "INST" | "STACK_GLOBAL";
  /** Byte offset of the opcode in the pickle. */
  offset: number;
}

/** What reading one pickle (up to its STOP) found. */
export interface PickleRead {
  value: PyValue;
  /** Offset just past STOP, or where reading stopped on an error. */
  end: number;
  protocol: number;
  globals: ImportedGlobal[];
  /** EXT1/EXT2/EXT4 codes: they import through the copyreg extension registry, so their target is unknown. */
  extCodes: number[];
  /** Arrays joblib wrote inline after their wrappers (read past, not as opcodes), when `joblibArrays` is on. */
  arrays: JoblibArray[];
  /** Why the pickle could not be read to its STOP, or null. */
  error: string | null;
}

/** Options of `readPickle`. */
export interface ReadOptions {
  /**
   * Read the stream as joblib.load does: the bytes after a NumpyArrayWrapper's BUILD are its array (default).
   * Off for an object array's nested pickle, which joblib reads with a plain Unpickler.
   */
  joblibArrays?: boolean;
}

const MAX_OPS = 20_000_000;

/**
 * Reads one pickle without executing it: a stack machine over every opcode of protocols 0–5 that builds inert
 * values. It is tolerant by design (a stack underflow yields a PyUnknown rather than an exception) so that a
 * hostile or damaged pickle still has all of its imports listed.
 */
export function readPickle(bytes: Uint8Array, start = 0, options: ReadOptions = {}): PickleRead {
  const cur = new Cursor(bytes, start);
  // CPython's model: MARK moves the current stack onto a metastack and starts an empty one.
  let stack: PyValue[] = [];
  const metastack: PyValue[][] = [];
  const memo = new Map<number, PyValue>();
  const globals: ImportedGlobal[] = [];
  const extCodes: number[] = [];
  const arrays: JoblibArray[] = [];
  let protocol = 0;
  let opStart = start;

  const pop = (): PyValue => (stack.length > 0 ? stack.pop()! : new PyUnknown("stack underflow"));
  const top = (): PyValue => (stack.length > 0 ? stack.at(-1)! : new PyUnknown("stack underflow"));
  const popMark = (): PyValue[] => {
    const items = stack;
    stack = metastack.pop() ?? [];
    return items;
  };
  const push = (v: PyValue) => stack.push(v);
  const importGlobal = (module: string, name: string, opcode: ImportedGlobal["opcode"]) => {
    globals.push({ module, name, opcode, offset: opStart });
    return new PyGlobal(module, name);
  };
  const call = (callee: PyValue, args: PyValue, kwargs: PyValue | null = null): PyValue => {
    const list = args instanceof PyTuple ? args.items : Array.isArray(args) ? args : [args];
    // OrderedDict() and dict() are containers: give them real dict semantics for SETITEMS.
    if (callee instanceof PyGlobal && list.length === 0 && (callee.qualified === "collections.OrderedDict" || callee.qualified === "builtins.dict")) {
      return new PyDict(callee.qualified);
    }
    return new PyCall(callee, list, kwargs);
  };
  const setItems = (target: PyValue, pairs: PyValue[]) => {
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const pair: [PyValue, PyValue] = [pairs[i]!, pairs[i + 1]!];
      if (target instanceof PyDict) target.entries.push(pair);
      else if (target instanceof PyCall) target.items.push(pair);
    }
  };
  const append = (target: PyValue, items: PyValue[]) => {
    if (Array.isArray(target)) target.push(...items);
    else if (target instanceof PyCall) target.appended.push(...items);
    else if (target instanceof PySet) target.items.push(...items);
  };
  const memoGet = (key: number): PyValue => memo.get(key) ?? new PyUnknown(`memo ${key} not set`);
  /** joblib's array after its wrapper; an object array's nested pickle imports count as this pickle's. */
  const readArrayAfter = (wrapper: PyCall) => {
    const { array, nested } = readJoblibArray(wrapper, cur, (at) => readPickle(bytes, at, { joblibArrays: false }));
    arrays.push(array);
    if (!nested) return;
    globals.push(...nested.globals);
    extCodes.push(...nested.extCodes);
    if (nested.error) throw new PickleFormatError(`the object array's nested pickle at byte ${array.offset}: ${nested.error}`);
  };

  try {
    for (let ops = 0; ops < MAX_OPS; ops++) {
      opStart = cur.pos;
      const op = cur.u8();
      switch (op) {
        case 0x80: // PROTO
          protocol = cur.u8();
          break;
        case 0x95: // FRAME: only a size hint
          cur.u64();
          break;
        case 0x2e: // STOP
          return { value: pop(), end: cur.pos, protocol, globals, extCodes, arrays, error: null };
        case 0x28: // MARK
          metastack.push(stack);
          stack = [];
          break;
        case 0x30: // POP
          if (stack.length > 0) stack.pop();
          else popMark();
          break;
        case 0x31: // POP_MARK
          popMark();
          break;
        case 0x32: // DUP
          push(top());
          break;
        case 0x98: // READONLY_BUFFER
          break;
        case 0x29: // EMPTY_TUPLE
          push(new PyTuple([]));
          break;
        case 0x74: // TUPLE
          push(new PyTuple(popMark()));
          break;
        case 0x85: // TUPLE1
          push(new PyTuple([pop()]));
          break;
        case 0x86: {
          // TUPLE2
          const b = pop();
          push(new PyTuple([pop(), b]));
          break;
        }
        case 0x87: {
          // TUPLE3
          const c = pop();
          const b = pop();
          push(new PyTuple([pop(), b, c]));
          break;
        }
        case 0x5d: // EMPTY_LIST
          push([]);
          break;
        case 0x6c: // LIST
          push(popMark());
          break;
        case 0x7d: // EMPTY_DICT
          push(new PyDict());
          break;
        case 0x64: {
          // DICT
          const d = new PyDict();
          setItems(d, popMark());
          push(d);
          break;
        }
        case 0x8f: // EMPTY_SET
          push(new PySet([], false));
          break;
        case 0x91: // FROZENSET
          push(new PySet(popMark(), true));
          break;
        case 0x61: {
          // APPEND
          const v = pop();
          append(top(), [v]);
          break;
        }
        case 0x90: // ADDITEMS (to a set)
        case 0x65: {
          // APPENDS
          const items = popMark();
          append(top(), items);
          break;
        }
        case 0x73: {
          // SETITEM
          const v = pop();
          const k = pop();
          setItems(top(), [k, v]);
          break;
        }
        case 0x75: {
          // SETITEMS
          const items = popMark();
          setItems(top(), items);
          break;
        }
        case 0x70: // PUT
          memo.set(Number.parseInt(cur.line(), 10), top());
          break;
        case 0x71: // BINPUT
          memo.set(cur.u8(), top());
          break;
        case 0x72: // LONG_BINPUT
          memo.set(cur.u32(), top());
          break;
        case 0x94: // MEMOIZE
          memo.set(memo.size, top());
          break;
        case 0x67: // GET
          push(memoGet(Number.parseInt(cur.line(), 10)));
          break;
        case 0x68: // BINGET
          push(memoGet(cur.u8()));
          break;
        case 0x6a: // LONG_BINGET
          push(memoGet(cur.u32()));
          break;
        case 0x63: {
          // GLOBAL
          const module = cur.importName("utf-8");
          push(importGlobal(module, cur.importName("utf-8"), "GLOBAL"));
          break;
        }
        case 0x93: {
          // STACK_GLOBAL: operands usually strings, possibly fetched from the memo; anything else is unknown
          const name = pop();
          const module = pop();
          push(importGlobal(typeof module === "string" ? module : "unknown", typeof name === "string" ? name : "unknown", "STACK_GLOBAL"));
          break;
        }
        case 0x69: {
          // INST: import and call with the marked items
          const module = cur.importName("ascii");
          const g = importGlobal(module, cur.importName("ascii"), "INST");
          push(call(g, new PyTuple(popMark())));
          break;
        }
        case 0x6f: {
          // OBJ: the callee is the first marked item
          const items = popMark();
          push(call(items[0] ?? new PyUnknown("OBJ without class"), new PyTuple(items.slice(1))));
          break;
        }
        case 0x52: // REDUCE: callable, args
        case 0x81: {
          // NEWOBJ: class, args
          const args = pop();
          push(call(pop(), args));
          break;
        }
        case 0x92: {
          // NEWOBJ_EX
          const kwargs = pop();
          const args = pop();
          push(call(pop(), args, kwargs));
          break;
        }
        case 0x62: {
          // BUILD
          const state = pop();
          const target = top();
          if (target instanceof PyCall || target instanceof PyDict) target.state = state;
          if (options.joblibArrays !== false && isJoblibArrayWrapper(target)) readArrayAfter(target);
          break;
        }
        case 0x50: // PERSID
          push(new PyPersistent(cur.line()));
          break;
        case 0x51: // BINPERSID
          push(new PyPersistent(pop()));
          break;
        case 0x82: // EXT1
        case 0x83: // EXT2
        case 0x84: {
          // EXT4
          const code = op === 0x82 ? cur.u8() : op === 0x83 ? cur.u16() : cur.i32();
          extCodes.push(code);
          push(new PyUnknown(`extension ${code}`));
          break;
        }
        default: {
          // Numbers, strings, bytes, None/True/False: a value read from the opcode's own argument.
          const literal = readLiteral(op, cur);
          if (literal === NOT_LITERAL) throw new PickleFormatError(`unknown opcode 0x${op.toString(16).padStart(2, "0")} at byte ${opStart}`);
          push(literal);
        }
      }
    }
    throw new PickleFormatError(`more than ${MAX_OPS} opcodes`);
  } catch (err) {
    if (!(err instanceof PickleFormatError)) throw err;
    return { value: new PyUnknown(err.message), end: cur.pos, protocol, globals, extCodes, arrays, error: err.message };
  }
}
