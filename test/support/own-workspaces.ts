import { afterAll } from "vitest";
import { removeOwnWorkspaces } from "../../artifacts/workspace.js";

/**
 * vitest setupFile: a test file's process removes its own workspace directory (ml-diagnosis-proc-<host>-<pid>)
 * when the file ends, as server/main.ts does when the service exits. Services started in-process by the tests
 * (test/support/http-service.ts) create it on their first pull and never exit, and a forked worker is ended
 * without its exit handlers.
 */
afterAll(() => {
  removeOwnWorkspaces();
});
