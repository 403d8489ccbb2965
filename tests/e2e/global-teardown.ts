import fs from "node:fs";

/** Removes the embedded database the e2e server used (a fresh one is created for every run). */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && dir.includes("membership-e2e-")) fs.rmSync(dir, { recursive: true, force: true });
}
