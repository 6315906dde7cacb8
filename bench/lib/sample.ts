import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./service.js";

/** The benchmark request (4 artifacts, ~2k metric rows), copied from the project's public samples. */
export const SAMPLE_REQUEST_PATH = join(ROOT, "bench", "fixtures", "full-image-classification.json");

/** The benchmark request's body text, byte for byte as a client sends it. */
export const readSampleRequest = () => readFileSync(SAMPLE_REQUEST_PATH, "utf8");
