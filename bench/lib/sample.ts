import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./service.js";

/** The benchmark request (4 artifacts, ~2k metric rows): the public sample the tests use too. */
export const SAMPLE_REQUEST_PATH = join(ROOT, "test", "fixtures", "samples", "full-image-classification.json");

/** The benchmark request's body text, byte for byte as a client sends it. */
export const readSampleRequest = () => readFileSync(SAMPLE_REQUEST_PATH, "utf8");
