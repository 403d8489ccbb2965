import path from "node:path";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import relay from "vite-plugin-relay";
import { visualizer } from "rollup-plugin-visualizer";

const here = import.meta.dirname;
// The API server (npm run dev:api) that `vite` proxies to in development.
const api = `http://127.0.0.1:${process.env.API_PORT ?? process.env.PORT ?? 3000}`;

/**
 * The dependency-free rules the server and the browser share (money, calendar, slugs, fulfillment modes): one
 * copy in api/shared, imported as "@shared/money.ts". The server imports them by relative path (Node's type
 * stripping reads no tsconfig paths); web/tsconfig.json `paths` maps the same alias for tsc, and
 * web/vitest.config.ts uses this one.
 */
export const sharedAlias = { find: /^@shared\//, replacement: `${path.resolve(here, "../api/shared")}/` };

export default defineConfig({
  root: here,
  publicDir: path.join(here, "public"),
  plugins: [
    react(),
    relay,
    // BUNDLE_ANALYZE=/tmp/treemap.html (or .json for raw data) writes which modules fill each chunk and their
    // minified size (read from source maps, which the build then also writes).
    process.env.BUNDLE_ANALYZE &&
      visualizer({
        filename: process.env.BUNDLE_ANALYZE,
        template: process.env.BUNDLE_ANALYZE.endsWith(".json") ? "raw-data" : "treemap",
        gzipSize: true,
        sourcemap: true,
      }),
  ],
  resolve: {
    alias: [
      sharedAlias,
      // react-relay's main entry also carries the legacy container API (QueryRenderer, createFragmentContainer…),
      // CommonJS that cannot be tree-shaken; the app uses hooks only, which `react-relay/hooks` exports alone.
      { find: /^react-relay$/, replacement: "react-relay/hooks" },
    ],
  },
  build: {
    outDir: path.resolve(here, "../dist/web"),
    emptyOutDir: true,
    // Chakra is one large vendor chunk; routes are split with React.lazy.
    chunkSizeWarningLimit: 900,
    sourcemap: Boolean(process.env.BUNDLE_ANALYZE),
  },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { "/graphql": api, "/api": api, "/uploads": api },
  },
});
