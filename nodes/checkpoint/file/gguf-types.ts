import type { DType } from "./dtypes.js";

/**
 * ggml tensor types as GGUF stores them: name, elements per block and bytes per block (gguf-py
 * `constants.GGMLQuantizationType` and `GGML_QUANT_SIZES`, gguf 0.19). Types whose values the scan reads map to a DType.
 */
export const GGML_TYPES: ReadonlyMap<number, { name: string; block: number; bytes: number; dtype?: DType }> = new Map([
  [0, { name: "F32", block: 1, bytes: 4, dtype: "F32" }], [1, { name: "F16", block: 1, bytes: 2, dtype: "F16" }],
  [2, { name: "Q4_0", block: 32, bytes: 18 }], [3, { name: "Q4_1", block: 32, bytes: 20 }],
  [6, { name: "Q5_0", block: 32, bytes: 22 }], [7, { name: "Q5_1", block: 32, bytes: 24 }],
  [8, { name: "Q8_0", block: 32, bytes: 34 }], [9, { name: "Q8_1", block: 32, bytes: 36 }],
  [10, { name: "Q2_K", block: 256, bytes: 84 }], [11, { name: "Q3_K", block: 256, bytes: 110 }],
  [12, { name: "Q4_K", block: 256, bytes: 144 }], [13, { name: "Q5_K", block: 256, bytes: 176 }],
  [14, { name: "Q6_K", block: 256, bytes: 210 }], [15, { name: "Q8_K", block: 256, bytes: 292 }],
  [16, { name: "IQ2_XXS", block: 256, bytes: 66 }], [17, { name: "IQ2_XS", block: 256, bytes: 74 }],
  [18, { name: "IQ3_XXS", block: 256, bytes: 98 }], [19, { name: "IQ1_S", block: 256, bytes: 50 }],
  [20, { name: "IQ4_NL", block: 32, bytes: 18 }], [21, { name: "IQ3_S", block: 256, bytes: 110 }],
  [22, { name: "IQ2_S", block: 256, bytes: 82 }], [23, { name: "IQ4_XS", block: 256, bytes: 136 }],
  [24, { name: "I8", block: 1, bytes: 1, dtype: "I8" }], [25, { name: "I16", block: 1, bytes: 2, dtype: "I16" }],
  [26, { name: "I32", block: 1, bytes: 4, dtype: "I32" }], [27, { name: "I64", block: 1, bytes: 8, dtype: "I64" }],
  [28, { name: "F64", block: 1, bytes: 8, dtype: "F64" }], [29, { name: "IQ1_M", block: 256, bytes: 56 }],
  [30, { name: "BF16", block: 1, bytes: 2, dtype: "BF16" }], [34, { name: "TQ1_0", block: 256, bytes: 54 }],
  [35, { name: "TQ2_0", block: 256, bytes: 66 }], [39, { name: "MXFP4", block: 32, bytes: 17 }],
]);

/** llama.cpp's `general.file_type` (LlamaFileType): the quantization the whole file was made with. */
export const GGUF_FILE_TYPES: ReadonlyMap<number, string> = new Map([
  [0, "ALL_F32"], [1, "MOSTLY_F16"], [2, "MOSTLY_Q4_0"], [3, "MOSTLY_Q4_1"], [7, "MOSTLY_Q8_0"], [8, "MOSTLY_Q5_0"],
  [9, "MOSTLY_Q5_1"], [10, "MOSTLY_Q2_K"], [11, "MOSTLY_Q3_K_S"], [12, "MOSTLY_Q3_K_M"], [13, "MOSTLY_Q3_K_L"],
  [14, "MOSTLY_Q4_K_S"], [15, "MOSTLY_Q4_K_M"], [16, "MOSTLY_Q5_K_S"], [17, "MOSTLY_Q5_K_M"], [18, "MOSTLY_Q6_K"],
  [32, "MOSTLY_BF16"],
]);

/** GGUF metadata value types (gguf-py `GGUFValueType`): byte size of each scalar, 8 = string, 9 = array. */
export const GGUF_SCALAR_BYTES: ReadonlyMap<number, number> = new Map([[0, 1], [1, 1], [2, 2], [3, 2], [4, 4], [5, 4], [6, 4], [7, 1], [10, 8], [11, 8], [12, 8]]);
export const GGUF_STRING = 8;
export const GGUF_ARRAY = 9;
