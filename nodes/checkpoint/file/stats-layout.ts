import type { DType } from "./dtypes.js";
import { bfloat16Table, type Float8Name, float8Table, halfTable } from "./float-tables.js";

/** How a dtype's elements are read: a float view, 8/16-bit codes through a table, or integers. */
export type Layout =
  | { kind: "f32" }
  | { kind: "f64" }
  | { kind: "codes"; bits: 8 | 16; table: Float32Array; magnitudeMask: number }
  | { kind: "int"; view: "i8" | "u8" | "i16" | "u16" | "i32" | "u32" }
  | { kind: "int64"; signed: boolean };

export function layoutOf(dtype: DType): Layout | null {
  switch (dtype) {
    case "F32":
    case "C64":
      return { kind: "f32" };
    case "F64":
    case "C128":
      return { kind: "f64" };
    case "F16":
      return { kind: "codes", bits: 16, table: halfTable(), magnitudeMask: 0x7fff };
    case "BF16":
      return { kind: "codes", bits: 16, table: bfloat16Table(), magnitudeMask: 0x7fff };
    case "F8_E4M3":
    case "F8_E5M2":
    case "F8_E4M3FNUZ":
    case "F8_E5M2FNUZ":
      return { kind: "codes", bits: 8, table: float8Table(dtype as Float8Name), magnitudeMask: 0x7f };
    case "F8_E8M0":
      return { kind: "codes", bits: 8, table: float8Table("F8_E8M0"), magnitudeMask: 0xff };
    case "BOOL":
    case "U8":
      return { kind: "int", view: "u8" };
    case "I8":
      return { kind: "int", view: "i8" };
    case "I16":
      return { kind: "int", view: "i16" };
    case "U16":
      return { kind: "int", view: "u16" };
    case "I32":
      return { kind: "int", view: "i32" };
    case "U32":
      return { kind: "int", view: "u32" };
    case "I64":
    case "U64":
      return { kind: "int64", signed: dtype === "I64" };
    case "F4":
    case "F6_E2M3":
    case "F6_E3M2":
      return null;
    default: {
      const never: never = dtype;
      throw new Error(`unhandled dtype ${String(never)}`);
    }
  }
}

const ELEMENT_SIZE = { f32: 4, f64: 8, int64: 8, i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4 } as const;
export const INT_VIEWS = { i8: Int8Array, u8: Uint8Array, i16: Int16Array, u16: Uint16Array, i32: Int32Array, u32: Uint32Array };

export function elementSize(layout: Layout): number {
  if (layout.kind === "codes") return layout.bits / 8;
  if (layout.kind === "int") return ELEMENT_SIZE[layout.view];
  return ELEMENT_SIZE[layout.kind];
}

/** Whether the streaming statistics can read this element type (sub-byte floats are not decoded). */
export function canMeasure(dtype: DType): boolean {
  return layoutOf(dtype) !== null;
}
