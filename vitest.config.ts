import { defineConfig } from "vitest/config";

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module); Node loads the CJS one for Pothos and yoga, so tests must
  // too, or schema objects come from two realms.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["tests/**/*.test.ts", "api/**/*.test.ts", "rest-compat/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**"],
    environment: "node",
    globalSetup: ["tests/contract/ledger.setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    // Generous: CI machines are shared, and a loaded one must not fail a correct test.
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
