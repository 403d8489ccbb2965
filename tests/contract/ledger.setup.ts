/**
 * Vitest global setup: a directory shared by the run's test files, where the contract tests note the REST
 * routes they got a checked answer from (tests/contract/declared.ts); removed when the run ends.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rest-contract-"));
  project.provide("restContractLedger", dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
