import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// The config is loaded by the runner and again by each worker: choose the port and data folder once and pass
// them down through the environment, so every process agrees.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
]).toString();
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "membership-e2e-"));
const port = Number(process.env.E2E_PORT);
/** The server's clock starts here; tests/e2e/support pins the browser to it too. */
export const E2E_CLOCK_START = "2026-03-05T15:00:00Z";
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: "./test-results",
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/e2e-report.json" }]] : "list",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // Generous: the app server and Chromium share two cores with whatever else runs.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  globalTeardown: "./tests/e2e/global-teardown.ts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium (apt-get install chromium); `playwright install` cannot download browsers here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // The built app exactly as `npm start` runs it (builds dist/web first if missing), on a fresh database
    // (embedded, or E2E_DATABASE_URL) that the server migrates and fills with the demo data.
    command: "node scripts/start.mjs",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_HOST: `localhost:${port}`,
      DATA_DIR: process.env.E2E_DATA_DIR,
      // The embedded database by default; E2E_DATABASE_URL runs the same flows on PostgreSQL (an empty database
      // the server migrates and seeds: `npm test` creates and drops one for the member journeys).
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
      SEED_DEMO: "1",
      LOG_LEVEL: "warn",
      // A fixed business day (the 5th: inside the default skip/change windows, before any cutoff), so the
      // flows do not depend on when the suite runs. Tests pin the browser's clock to the same instant.
      CLOCK_START: E2E_CLOCK_START,
    },
  },
});
