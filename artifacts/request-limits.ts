import { z } from "zod";

/**
 * Longest names a request may carry (dataset, model, experiment, run): far above any real one (MLflow caps run
 * names at 250 characters), and small enough that a refusal or a message quoting one stays short.
 */
export const MAX_NAME_LENGTH = 1000;

/** A name field of a request, within MAX_NAME_LENGTH. */
export const nameField = () => z.string().max(MAX_NAME_LENGTH);
