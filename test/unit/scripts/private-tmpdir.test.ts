import { tmpdir } from "node:os";
import { expect, it } from "vitest";

it("tests write temp files into the run's own directory, which the run removes (test/support/private-tmpdir.ts)", () => {
  expect(tmpdir()).toMatch(/\/ml-diagnosis-test-run-[^/]+$/);
});
