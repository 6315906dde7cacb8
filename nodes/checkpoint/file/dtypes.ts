/** Tensor element types under their safetensors names (FORMATS.md §6.1), with torch and common aliases. */
export const DTYPE_BITS = {
  BOOL: 8, U8: 8, I8: 8, I16: 16, U16: 16, F16: 16, BF16: 16, I32: 32, U32: 32, F32: 32, F64: 64, I64: 64, U64: 64,
  C64: 64, C128: 128, F8_E5M2: 8, F8_E4M3: 8, F8_E8M0: 8, F8_E4M3FNUZ: 8, F8_E5M2FNUZ: 8, F4: 4, F6_E2M3: 6, F6_E3M2: 6,
} as const;
export type DType = keyof typeof DTYPE_BITS;

const FLOATS = new Set<DType>(["F16", "BF16", "F32", "F64", "C64", "C128", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ", "F8_E5M2FNUZ", "F4", "F6_E2M3", "F6_E3M2"]);

export function isDType(s: string): s is DType {
  return Object.hasOwn(DTYPE_BITS, s);
}

/** Bytes a tensor of `numel` elements takes (sub-byte types round up, as safetensors does). */
export function tensorBytes(dtype: DType, numel: number): number {
  return Math.ceil((numel * DTYPE_BITS[dtype]) / 8);
}

export function isFloatDType(dtype: DType): boolean {
  return FLOATS.has(dtype);
}

const ALIASES: Record<string, DType> = {
  float32: "F32", float: "F32", fp32: "F32", float64: "F64", double: "F64", fp64: "F64",
  float16: "F16", half: "F16", fp16: "F16", bfloat16: "BF16", bf16: "BF16",
  int8: "I8", char: "I8", uint8: "U8", byte: "U8", int16: "I16", short: "I16", uint16: "U16",
  int32: "I32", int: "I32", uint32: "U32", int64: "I64", long: "I64", uint64: "U64", bool: "BOOL",
  complex64: "C64", cfloat: "C64", complex128: "C128", cdouble: "C128",
  float8_e4m3fn: "F8_E4M3", float8_e5m2: "F8_E5M2", float8_e4m3fnuz: "F8_E4M3FNUZ", float8_e5m2fnuz: "F8_E5M2FNUZ",
  float8_e8m0fnu: "F8_E8M0",
};

/** `F32`, `float32`, `torch.float32`, `fp32` → `F32`; null for a name we do not know. */
export function normalizeDType(name: string): DType | null {
  const trimmed = name.trim();
  if (isDType(trimmed.toUpperCase())) return trimmed.toUpperCase() as DType;
  return ALIASES[trimmed.toLowerCase().replace(/^(torch|numpy|np)\./, "")] ?? null;
}

/** torch storage class (`FloatStorage`) → element type (the legacy typed-storage names torch still pickles). */
export const STORAGE_DTYPES: Record<string, DType> = {
  DoubleStorage: "F64", FloatStorage: "F32", HalfStorage: "F16", BFloat16Storage: "BF16", LongStorage: "I64",
  IntStorage: "I32", ShortStorage: "I16", CharStorage: "I8", ByteStorage: "U8", BoolStorage: "BOOL",
  ComplexFloatStorage: "C64", ComplexDoubleStorage: "C128", QUInt8Storage: "U8", QInt8Storage: "I8",
  QInt32Storage: "I32", UntypedStorage: "U8",
};
