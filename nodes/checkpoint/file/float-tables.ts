/** Lookup tables that decode 16- and 8-bit floats to float32: one indexed load per element beats bit twiddling. */

function buildHalfTable(): Float32Array {
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const frac = h & 0x3ff;
    if (exp === 0) t[h] = sign * frac * 2 ** -24;
    else if (exp === 31) t[h] = frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
    else t[h] = sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  return t;
}

function buildBFloat16Table(): Float32Array {
  const bits = new Uint32Array(65536);
  for (let h = 0; h < 65536; h++) bits[h] = h << 16;
  return new Float32Array(bits.buffer);
}

/** An 8-bit float with `expBits`/`manBits`; `fnuz` variants have one NaN (0x80) and no infinities or −0. */
function buildFloat8Table(expBits: number, manBits: number, bias: number, kind: "ieee" | "fn" | "fnuz"): Float32Array {
  const t = new Float32Array(256);
  const expMax = (1 << expBits) - 1;
  for (let b = 0; b < 256; b++) {
    const sign = b & 0x80 ? -1 : 1;
    const exp = (b >> manBits) & expMax;
    const man = b & ((1 << manBits) - 1);
    if (kind === "fnuz" && b === 0x80) t[b] = Number.NaN;
    else if (kind === "ieee" && exp === expMax) t[b] = man ? Number.NaN : sign * Number.POSITIVE_INFINITY;
    else if (kind === "fn" && exp === expMax && man === (1 << manBits) - 1) t[b] = Number.NaN;
    else if (exp === 0) t[b] = sign * man * 2 ** (1 - bias - manBits);
    else t[b] = sign * (1 + man / (1 << manBits)) * 2 ** (exp - bias);
  }
  return t;
}

/** E8M0 (MX scale): a power of two, 0xff is NaN. */
function buildE8M0Table(): Float32Array {
  const t = new Float32Array(256);
  for (let b = 0; b < 256; b++) t[b] = b === 255 ? Number.NaN : 2 ** (b - 127);
  return t;
}

let half: Float32Array | null = null;
let bf16: Float32Array | null = null;
const f8 = new Map<string, Float32Array>();

export function halfTable(): Float32Array {
  half ??= buildHalfTable();
  return half;
}

export function bfloat16Table(): Float32Array {
  bf16 ??= buildBFloat16Table();
  return bf16;
}

const F8_LAYOUTS = {
  F8_E4M3: [4, 3, 7, "fn"],
  F8_E5M2: [5, 2, 15, "ieee"],
  F8_E4M3FNUZ: [4, 3, 8, "fnuz"],
  F8_E5M2FNUZ: [5, 2, 16, "fnuz"],
} as const;

export type Float8Name = keyof typeof F8_LAYOUTS | "F8_E8M0";

export function float8Table(name: Float8Name): Float32Array {
  let t = f8.get(name);
  if (!t) {
    if (name === "F8_E8M0") t = buildE8M0Table();
    else {
      const [e, m, bias, kind] = F8_LAYOUTS[name];
      t = buildFloat8Table(e, m, bias, kind);
    }
    f8.set(name, t);
  }
  return t;
}
