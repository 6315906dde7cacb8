import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { chromiumPath } from "../../support/chromium.js";

const ROOT = new URL("../../../", import.meta.url).pathname;
const bash = (script: string, env: Record<string, string> = {}) =>
  spawnSync("bash", ["-c", script], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, encoding: "utf8" });

describe("setup steps", () => {
  it("print one line per step and, on failure, the step, the command, its output and the fix", () => {
    const run = bash(`SETUP_NAME=setup-x; source scripts/lib/steps.sh
      step "first step" "never needed" true
      step "second step" "install the thing" sh -c 'echo why it broke >&2; exit 3'
      echo unreachable`);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")).toEqual([
      "setup-x: first step",
      "setup-x: second step",
      "setup-x:   | why it broke",
      'setup-x: FAILED at step "second step": `sh -c echo why it broke >&2; exit 3` exited with status 3. Fix: install the thing',
      "",
    ]);
  });

  it("setup-mlflow names the missing Python and what to install", () => {
    const run = bash("bash scripts/setup-mlflow.sh", { PYTHON: "/nonexistent/python3" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/setup-mlflow: FAILED at step "find Python": '\/nonexistent\/python3' is not on PATH\. Fix: install Python 3 with venv/);
  });

  it("a failing setup stops npm test before any test runs", () => {
    const run = bash("bash scripts/test.sh --version", { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/setup-chromium: FAILED at step "find Chromium": CHROMIUM_PATH=\/nonexistent\/chromium is not an executable file\. Fix: /);
    expect(run.stdout).not.toMatch(/vitest/i);
  });

  it("the browser tests take Chromium from CHROMIUM_PATH when it is set", () => {
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chrome/chrome" })).toBe("/opt/chrome/chrome");
  });
});
